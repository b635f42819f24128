import { openApiDocumentShape } from "../../response-shapes.ts";
import { operation } from "../operation.ts";

export const getOpenApiDocument = operation({
  operationId: "getOpenApiDocument",
  method: "get",
  path: "/v1/openapi.json",
  tag: "Meta",
  summary: "This API description",
  description: "This document: OpenAPI 3.1, generated from the shapes the service validates with. The reference page is at `/docs`.",
  auth: "public",
  response: { status: 200, description: "The OpenAPI document.", body: openApiDocumentShape },
  errors: [],
});
