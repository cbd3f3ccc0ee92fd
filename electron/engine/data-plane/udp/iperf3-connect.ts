/**
 * iperf3's UDP "connect" on one stream's socket (src/iperf_udp.c; the bytes: datagram.ts). UDP has
 * no handshake, so iperf3 makes one: the client's socket, connected to the server's port, sends a
 * 4-byte message; the server reads it on its listening socket, binds another socket to the same
 * port (SO_REUSEADDR), connects that one to the client's address and replies from it. From then on
 * the kernel gives that stream's datagrams to the connected socket (the more specific match) and
 * new streams' messages to the listener. Either end may then send, whichever the test's direction.
 */
import dgram from 'node:dgram';
import { isIPv6 } from 'node:net';
import { iperf3ConnectMessage, iperf3ConnectReply, isIperf3ConnectReply } from './datagram.js';

/** The client repeats its message this often while no reply came (the first may be lost on a real path), ms. */
const RESEND_MS = 1000;

/** A socket for one iperf3 UDP stream; `sharePort`: the server's, bound beside its listener on the same port. */
export function iperf3StreamSocket(host: string, sharePort: boolean): dgram.Socket {
  return dgram.createSocket({ type: isIPv6(host) ? 'udp6' : 'udp4', reuseAddr: sharePort });
}

/**
 * The client's half: connect `socket` to the server's host:port, send the message until the reply
 * comes (other datagrams before it are ignored: in a reverse test the server's data may overtake
 * its reply), within `timeoutMs`.
 */
export function iperf3Dial(socket: dgram.Socket, host: string, port: number, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let resend: NodeJS.Timeout | null = null;
    const finish = (err: Error | null): void => {
      clearTimeout(deadline);
      if (resend) clearTimeout(resend);
      socket.off('message', onMessage);
      socket.off('error', onError);
      if (err) reject(err);
      else resolve();
    };
    const onMessage = (msg: Buffer): void => {
      if (isIperf3ConnectReply(msg)) finish(null);
    };
    const onError = (err: Error): void =>
      finish((err as NodeJS.ErrnoException).code === 'ECONNREFUSED' ? new Error(`nothing takes UDP on ${host}:${port} (ICMP port unreachable)`) : err);
    const send = (): void => {
      socket.send(iperf3ConnectMessage(), (err) => {
        if (err) onError(err);
      });
      resend = setTimeout(send, RESEND_MS);
    };
    const deadline = setTimeout(
      () => finish(new Error(`the iperf3 server did not answer this UDP stream's connect on ${host}:${port} within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    socket.on('error', onError);
    socket.on('message', onMessage);
    socket.connect(port, host, () => send());
  });
}

/** The server's half: bind `socket` to host:port beside the listener, connect it to the client's `peer`, reply. */
export async function iperf3Join(socket: dgram.Socket, host: string, port: number, peer: { address: string; port: number }): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.connect(peer.port, peer.address, () => {
        socket.off('error', reject);
        resolve();
      });
    });
  });
  await new Promise<void>((resolve, reject) => socket.send(iperf3ConnectReply(), (err) => (err ? reject(err) : resolve())));
}
