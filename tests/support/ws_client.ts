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
  const waiters: Array<(value: unknown) => void> = [];
  socket.onmessage = (event) => {
    const value = JSON.parse(event.data);
    const waiter = waiters.shift();
    if (waiter) waiter(value);
    else queue.push(value);
  };
  const closed = new Promise<CloseEvent>((resolve) => socket.addEventListener("close", resolve));
  return new Promise((resolve, reject) => {
    socket.onopen = () =>
      resolve({
        socket,
        closed,
        next: () =>
          queue.length ? Promise.resolve(queue.shift()) : new Promise((r) => waiters.push(r)),
      });
    socket.onerror = () => reject(new Error("WebSocket failed to open"));
  });
}

/** Closes with 1000 (unless closed already) and waits for the close event. */
export async function close(client: Client) {
  if (client.socket.readyState === WebSocket.OPEN) client.socket.close(1000);
  await client.closed;
}
