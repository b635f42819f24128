import { Suspense, useEffect } from "react";
import { Route, Router, Switch, useLocation } from "wouter";
import { Loading } from "./components/Page.tsx";
import { Notice } from "./components/Notice.tsx";
import { errorText } from "./errors.ts";
import { useLang, useMessages } from "./i18n/i18n.tsx";
import { shellMessages } from "./i18n/messages/shell.ts";
import { Layout } from "./layout/Layout.tsx";
import { PublicFrame } from "./layout/PublicFrame.tsx";
import NotFound from "./pages/NotFound.tsx";
import { PUBLIC_ROUTES, SESSION_ROUTES } from "./routes.tsx";
import { SessionProvider, useMe } from "./session.tsx";

/** The app: public pages as they are, every other path only with a session (else to sign-in). */
export function App() {
  return (
    <Router base="/dashboard">
      <Switch>
        {PUBLIC_ROUTES.map((route) => (
          <Route key={route.path} path={route.path}>
            <Suspense fallback={<Loading />}>
              <route.page />
            </Suspense>
          </Route>
        ))}
        <Route>
          <SignedIn />
        </Route>
      </Switch>
    </Router>
  );
}

function SignedIn() {
  const me = useMe();
  const m = useMessages(shellMessages);
  const { lang } = useLang();
  const [, navigate] = useLocation();
  useEffect(() => {
    if (me.signedOut) navigate("/sign-in", { replace: true });
  }, [me.signedOut, navigate]);
  if (me.isPending || me.signedOut) return <Loading />;
  if (me.isError) {
    return (
      <PublicFrame title={m.product}>
        <Notice tone="danger">{errorText(me.error, m, lang)}</Notice>
      </PublicFrame>
    );
  }
  return (
    <SessionProvider me={me.data}>
      <Layout>
        <Suspense fallback={<Loading />}>
          <Switch>
            {SESSION_ROUTES.map((route) => (
              <Route key={route.path} path={route.path}>
                <route.page />
              </Route>
            ))}
            <Route>
              <NotFound />
            </Route>
          </Switch>
        </Suspense>
      </Layout>
    </SessionProvider>
  );
}
