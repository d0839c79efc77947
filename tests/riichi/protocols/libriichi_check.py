"""Run by PyPI mjai's own venv (tests/riichi/mjai_peers.py), never imported by the project: libriichi's
``PlayerState`` (the state of Mortal and of mjai.app's bots) reads each seat's events, and at each
question says which kinds of action it would offer and whether it finds the seat's answers valid.

stdin: a JSON list of seats, each ``{"id", "events", "questions": [[index, kind, offered, sent], ...]}``;
stdout: a JSON list of what disagreed (empty when everything agreed)."""

import json
import sys

from mjai.mlibriichi.state import PlayerState


def check(seat):
    found = []
    state = PlayerState(seat["id"])
    questions = {index: (kind, set(offered), sent) for index, kind, offered, sent in seat["questions"]}
    events = seat["events"]
    for i, event in enumerate(events):
        candidate = state.update(json.dumps(event))
        if i not in questions:
            continue
        kind, offered, sent = questions[i]
        flags = {"dahai": candidate.can_discard, "reach": candidate.can_riichi, "chi": candidate.can_chi,
                 "pon": candidate.can_pon, "daiminkan": candidate.can_daiminkan, "ankan": candidate.can_ankan,
                 "kakan": candidate.can_kakan, "ryukyoku": candidate.can_ryukyoku,
                 "hora": candidate.can_tsumo_agari if kind == "tsumo" else candidate.can_ron_agari}
        libriichi = {k for k, v in flags.items() if v}
        if libriichi != offered - {"none"}:
            found.append({"event": event, "libriichi": sorted(libriichi), "offered": sorted(offered)})
        try:
            if sent[0]["type"] != "none":
                state.validate_reaction(json.dumps(sent[0]))
            if len(sent) == 2:  # reach: the seat is sent its reach, then discards
                state.update(json.dumps(events[i + 1]))
                state.validate_reaction(json.dumps(sent[1]))
        except Exception as error:  # noqa: BLE001 - reported, not raised
            found.append({"event": event, "sent": sent, "refused": str(error)})
    return found


if __name__ == "__main__":
    print(json.dumps([f for seat in json.load(sys.stdin) for f in check(seat)]))
