/**
 * An in-process webhook receiver (the mock's `webhookReceivers` seam) that keeps the uuid of every payment it is
 * told about and answers 204: what the store tests count deliveries with.
 *
 * @module
 */

/** A receiver that pushes each webhook's payment uuid onto `uuids`, in arrival order. */
export function uuidReceiverInto(uuids: string[]): (request: Request) => Promise<Response> {
  return async (request) => {
    uuids.push(((await request.json()) as { uuid: string }).uuid);
    return new Response(null, { status: 204 });
  };
}
