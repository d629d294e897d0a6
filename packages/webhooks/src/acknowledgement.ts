/**
 * The merchant's answers to a push (contract, "Acknowledgement and retry"): respCode "20000"
 * confirms receipt; anything else makes the service push again every 15 s, up to 10 times.
 */
export interface WebhookAck {
  respCode: string;
  respMsg: string;
}

/** The body that confirms receipt. */
export function acknowledge(respMsg = "success"): WebhookAck {
  return { respCode: "20000", respMsg };
}

/** A body that makes the service retry. The message must not carry secrets or card data. */
export function retryLater(respMsg = "not processed, retry"): WebhookAck {
  return { respCode: "50000", respMsg };
}
