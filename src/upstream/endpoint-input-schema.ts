/** One input property of a provider's endpoint, as JSON Schema writes it (what the console lists). */
export interface SchemaProperty {
  type?: string;
  enum?: readonly unknown[];
  default?: unknown;
  description?: string;
  title?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
}

/** An endpoint's input as its platform publishes it: its properties in the provider's order, and the required ones. */
export interface EndpointInputSchema {
  properties: Record<string, SchemaProperty>;
  required: string[];
}
