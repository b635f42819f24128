// A local OpenTelemetry collector for tests and the bench: a loopback HTTP server taking OTLP/HTTP
// JSON exports (POST /v1/traces, as @opentelemetry/exporter-trace-otlp-http sends them) and
// keeping every span with its service name.
import { createServer, type Server } from "node:http";
import { gunzipSync } from "node:zlib";

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };

export interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** "" for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
  status: number;
  /** The span ids its links point to. */
  links: string[];
}

interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: AnyValue }> };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: Array<{ key: string; value: AnyValue }>;
        status?: { code?: number };
        links?: Array<{ spanId: string }>;
      }>;
    }>;
  }>;
}

const valueOf = (v: AnyValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.boolValue ?? v.doubleValue;
const attributesOf = (list: Array<{ key: string; value: AnyValue }> = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

export interface CollectorOptions {
  /**
   * false: only count the spans (occurrences of `"startTimeUnixNano"` in each export: a span has one, its links and events none) without parsing them, so
   * a benchmark's collector, on the same machine, takes as little CPU from the processes as it can.
   */
  parse?: boolean;
}

export class OtlpCollector {
  readonly spans: CollectedSpan[] = [];
  /** Every span received, parsed or only counted. */
  spanCount = 0;
  readonly #parse: boolean;
  /** Export requests that were not OTLP JSON (a test fails on them rather than missing spans silently). */
  readonly refused: string[] = [];
  exports = 0;
  #server: Server | undefined;
  #port = 0;

  constructor(options: CollectorOptions = {}) {
    this.#parse = options.parse ?? true;
  }

  /** The value for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter appends /v1/traces). */
  get endpoint(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        let body = Buffer.concat(chunks);
        if (req.headers["content-encoding"] === "gzip") body = gunzipSync(body);
        if (req.url !== "/v1/traces" || !String(req.headers["content-type"]).startsWith("application/json")) {
          this.refused.push(`${req.method} ${req.url} ${req.headers["content-type"]}`);
          res.writeHead(415).end();
          return;
        }
        this.exports++;
        if (this.#parse) this.#collect(JSON.parse(body.toString("utf8")) as ExportRequest);
        else this.spanCount += body.toString("latin1").split('"startTimeUnixNano"').length - 1;
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, "127.0.0.1", resolve));
    this.#port = (this.#server.address() as { port: number }).port;
    return this;
  }

  #collect(request: ExportRequest): void {
    for (const resourceSpans of request.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)["service.name"]);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spanCount++;
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? "",
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            status: span.status?.code ?? 0,
            links: (span.links ?? []).map((link) => link.spanId),
          });
        }
      }
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
