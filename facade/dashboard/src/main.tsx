import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { I18nProvider } from "./i18n/i18n.tsx";
import { createQueryClient, createTrpcClient, TRPCProvider } from "./trpc.ts";
import "./styles/app.css";

const queryClient = createQueryClient();
const trpcClient = createTrpcClient();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <I18nProvider>
          <App />
        </I18nProvider>
      </TRPCProvider>
    </QueryClientProvider>
  </StrictMode>,
);
