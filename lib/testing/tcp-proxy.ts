import net from "node:net";

/**
 * For outage tests: `down()` drops and refuses connections, `blackhole()` accepts but never answers,
 * `up()` forwards again on the same port.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private sockets = new Set<net.Socket>();
  private mode: "forward" | "blackhole" = "forward";
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async up(): Promise<void> {
    this.mode = "forward";
    if (this.server) return;
    const server = net.createServer((client) => {
      this.sockets.add(client);
      client.on("close", () => this.sockets.delete(client));
      client.on("error", () => client.destroy());
      if (this.mode === "blackhole") return; // swallow everything, answer nothing
      const upstream = net.connect(this.targetPort, this.targetHost);
      this.sockets.add(upstream);
      upstream.on("close", () => {
        this.sockets.delete(upstream);
        client.destroy();
      });
      upstream.on("error", () => client.destroy());
      client.on("close", () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Existing connections are cut; new ones are accepted and then left hanging. */
  async blackhole(): Promise<void> {
    await this.up();
    this.mode = "blackhole";
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }
}
