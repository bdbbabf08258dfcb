// A bot in JavaScript (Node.js) speaking atout's bot protocol (docs/bot-protocol.md): one JSON
// object per line on stdin, one answer per decision on stdout. It passes every bid and
// declaration it can and otherwise plays its last legal action (legal actions come in increasing
// order, so in card play that is its highest card).
//
//   atout arena --bot-command "node examples/bots/highest_card.js" --baseline random
const readline = require("node:readline");

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello" && message.protocol !== 1) {
    console.error(`highest_card.js speaks protocol 1, not ${message.protocol}`);
    process.exit(1);
  }
  if (message.type === "bye") {
    process.exit(0);
  }
  if (message.type !== "decide") {
    return;
  }
  const legal = message.view.legal_actions;
  const action = legal.includes("pass") ? "pass" : legal[legal.length - 1];
  process.stdout.write(JSON.stringify({ id: message.id, action }) + "\n");
});
