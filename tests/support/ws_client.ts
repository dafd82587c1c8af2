/**
 * A WebSocket test client that collects replies (parsed JSON) in arrival order.
 */

/** An open test socket whose replies and close event are collected. */
export interface Client {
  socket: WebSocket;
  next(): Promise<unknown>;
  closed: Promise<CloseEvent>;
}

/** Opens `url` and resolves once the socket is open. */
export function connect(url: string, options?: WebSocketOptions | string[]): Promise<Client> {
  const socket = Array.isArray(options) ? new WebSocket(url, options) : new WebSocket(url, options);
  const queue: unknown[] = [];
  const waiters: PromiseWithResolvers<unknown>[] = [];
  let closedWith: CloseEvent | undefined;
  // A reply awaited on a socket that closes (or closed) is a failure with the close code, not a
  // test that waits for ever.
  const closedError = () =>
    new Error(`socket closed (${closedWith!.code} ${closedWith!.reason}) before a reply`);
  socket.onmessage = (event) => {
    const value = JSON.parse(event.data);
    const waiter = waiters.shift();
    if (waiter) waiter.resolve(value);
    else queue.push(value);
  };
  const closed = new Promise<CloseEvent>((resolve) =>
    socket.addEventListener("close", (event) => {
      closedWith = event;
      for (const waiter of waiters.splice(0)) waiter.reject(closedError());
      resolve(event);
    })
  );
  const next = () => {
    if (queue.length) return Promise.resolve(queue.shift());
    if (closedWith) return Promise.reject(closedError());
    const waiter = Promise.withResolvers<unknown>();
    waiters.push(waiter);
    return waiter.promise;
  };
  return new Promise((resolve, reject) => {
    socket.onopen = () => resolve({ socket, closed, next });
    socket.onerror = () => reject(new Error("WebSocket failed to open"));
  });
}

/** Closes with 1000 (unless closed already) and waits for the close event. */
export async function close(client: Client) {
  if (client.socket.readyState === WebSocket.OPEN) client.socket.close(1000);
  await client.closed;
}
