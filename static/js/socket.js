// The lobby protocol client for browsers (/ws/lobby/, session login).
//
// It logs in with the session cookie, hands every server message to ``onMessage``, and
// reconnects with backoff when the connection drops. On reconnect it tells the server which
// games it already holds and how many history messages of each, so Greetings carries only
// what was missed (and lists the games that ended meanwhile in ``inactive_games``).

export const PROTOCOL_VERSION = 1;

const MIN_DELAY_MS = 500;
const MAX_DELAY_MS = 15000;

export class LobbySocket {
  /**
   * @param {object} options
   * @param {string} [options.path] WebSocket path.
   * @param {() => Array<{game:number, history_size:number}>} [options.knownGames]
   * @param {boolean} [options.withHistory] false: Greetings without any game's history messages
   *   (a page that draws no move, or fetches its one game's Snapshot, needs none).
   * @param {boolean} [options.lobby] false: do not follow the lobby (a table page): only the
   *   messages about this user's own tables and the game the page entered arrive.
   * @param {(message: object) => void} options.onMessage every server message, Greetings included.
   * @param {(status: string, detail?: object) => void} [options.onStatus]
   *   "connecting" | "online" | "offline" (will retry) | "closed" (gave up: FatalError).
   */
  constructor({ path = "/ws/lobby/", knownGames = () => [], withHistory = true, lobby = true, onMessage,
    onStatus = () => {} }) {
    this.withHistory = withHistory;
    this.lobby = lobby;
    this.path = path;
    this.knownGames = knownGames;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.loggedIn = false;
    this.stopped = true;
    this.attempts = 0;
    this.timer = null;
    this.fatal = null;
    this.nextRef = 0;
    // ref -> label of the request, so an Error can say which request failed.
    this.pending = new Map();
    this.status = "closed";
  }

  start() {
    this.stopped = false;
    this.open();
    // A laptop waking up or a network coming back should not wait out the backoff.
    window.addEventListener("online", () => this.retryNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.retryNow();
    });
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000);
  }

  retryNow() {
    if (this.stopped || this.fatal || this.status !== "offline") return;
    clearTimeout(this.timer);
    this.open();
  }

  setStatus(status, detail) {
    this.status = status;
    this.onStatus(status, detail);
  }

  open() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${window.location.host}${this.path}`);
    this.ws = ws;
    this.loggedIn = false;
    this.setStatus("connecting");

    ws.addEventListener("open", () => {
      const login = { type: "Login", version: PROTOCOL_VERSION };
      const games = this.knownGames();
      if (games && games.length) login.games = games;
      if (!this.withHistory) login.history = false;
      if (!this.lobby) login.lobby = false;
      ws.send(JSON.stringify(login));
    });

    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // the server only sends JSON; anything else is not ours to interpret
      }
      if (!message || typeof message.type !== "string") return;
      // The lobby messages of one tick come in one frame, in order.
      const batch = message.type === "LobbyMessages" && Array.isArray(message.messages);
      for (const one of batch ? message.messages : [message]) this.receive(one);
    });

    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.loggedIn = false;
      this.pending.clear();
      if (this.stopped) {
        this.setStatus("closed");
        return;
      }
      if (this.fatal) {
        // A FatalError is about the login itself (logged out, wrong version): retrying
        // would only be refused again.
        this.setStatus("closed", this.fatal);
        return;
      }
      const base = Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** this.attempts);
      const delay = Math.round(base * (0.75 + Math.random() * 0.5));
      this.attempts += 1;
      this.setStatus("offline", { retryIn: delay });
      this.timer = setTimeout(() => this.open(), delay);
    });
  }

  /** One server message: a frame's, or one of a LobbyMessages frame's. */
  receive(message) {
    if (!message || typeof message.type !== "string") return;
    if (message.type === "Greetings") {
      this.loggedIn = true;
      this.attempts = 0;
      this.setStatus("online");
    } else if (message.type === "FatalError") {
      this.fatal = message;
    }
    if (message.ref !== undefined && message.ref !== null) {
      message.request = this.pending.get(message.ref) || null;
      this.pending.delete(message.ref);
    }
    this.onMessage(message);
  }

  /**
   * Send a request. Returns its ref (echoed on Error and ActionApplied), or null when not
   * logged in — the caller tells the user, since a queued click replayed later would surprise.
   */
  send(message, label = null) {
    if (!this.loggedIn || !this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    this.nextRef += 1;
    const ref = this.nextRef;
    this.pending.set(ref, label || message.type);
    // Requests that are never answered (most succeed silently) would otherwise pile up.
    if (this.pending.size > 200) this.pending.delete(this.pending.keys().next().value);
    this.ws.send(JSON.stringify({ ...message, ref }));
    return ref;
  }
}

/** A human sentence for a connection status, for the little indicator in each page. */
export function describeStatus(status, detail) {
  switch (status) {
    case "connecting":
      return "Connecting…";
    case "online":
      return "Live";
    case "offline":
      return `Connection lost — retrying in ${Math.ceil((detail?.retryIn || 0) / 1000)} s`;
    case "closed":
      return detail?.reason ? `Disconnected: ${detail.reason}` : "Disconnected";
    default:
      return status;
  }
}
