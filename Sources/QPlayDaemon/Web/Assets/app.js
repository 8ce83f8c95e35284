// The Simple Player: connects, subscribes and reads everything, again after every
// reconnection (the daemon restarted, or the network came back).
import { listeners, connect, request, report } from "./net.js";
import { startPlayer, refreshStatus } from "./player.js";
import { startQueue, readQueue } from "./queue.js";
import { startSearch, searchAgain } from "./search.js";
import { startLibrary } from "./library.js";

startPlayer();
startQueue();
startSearch();
startLibrary();
listeners.open.push(async () => {
  try {
    // Sent together, `subscribe` first: answers come in request order on one connection
    // (docs/PROTOCOL.md), so the daemon subscribes before it reads, no change between
    // them is missed, and the reads do not wait a round trip for the subscription's answer.
    const subscribed = request("subscribe", { events: ["player", "queue", "playlists", "scan"] });
    await Promise.all([subscribed, refreshStatus(), readQueue()]);
    searchAgain();
  } catch (error) {
    report(error);
  }
});
listeners.event.push((kind, data) => { if (kind === "scan" && data.done) searchAgain(); });
connect();
