"""A bot that plays a policy trained by ``train_policy.py``, speaking atout's bot protocol
(docs/bot-protocol.md) on stdin and stdout:

    atout arena --bot-command "python examples/research/policy_bot.py policy.npz" --baseline random

Each decision's view arrives as JSON; the bot reads it back (``atout.engine.wire.view_from_json``),
encodes it as in training (``atout.envs.encoding``) and answers the legal action of highest logit.
"""

from __future__ import annotations

import json
import sys

import numpy as np

from atout.engine.wire import WireError, view_from_json
from atout.envs.encoding import Encoding
from atout.presets import rules_for


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: policy_bot.py POLICY.npz")
    try:
        saved = np.load(sys.argv[1])
        weights, bias = saved["W"], saved["b"]
        trained = json.loads(str(saved["rules"]))
        encoding = Encoding(rules_for(trained["preset"], players=trained["players"]))
    except (OSError, KeyError, ValueError) as exc:
        sys.exit(f"policy_bot.py: cannot read the policy {sys.argv[1]}: {exc}")
    if weights.shape != (encoding.action_count, *encoding.observation_shape):
        sys.exit(f"policy_bot.py: {sys.argv[1]} is not a policy for {trained}")
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            break
        if message["type"] != "decide":
            continue
        try:
            view = view_from_json(message["view"])
        except WireError as exc:
            print(json.dumps({"id": message["id"], "error": str(exc)}), flush=True)
            continue
        legal = [int(a) for a in view.legal_actions]
        logits = weights[legal] @ encoding.observe(view) + bias[legal]
        word = message["view"]["legal_actions"][int(np.argmax(logits))]
        print(json.dumps({"id": message["id"], "action": word}), flush=True)


if __name__ == "__main__":
    main()
