"""The inspector's writer: signs in with the admin key and approves held writes, edits its own notes and erases
users, through the forms a browser posts (each with its CSRF token)."""

from __future__ import annotations

import queue
import random
import time
from dataclasses import dataclass, field

from chaoslib.clients import Answer, Inspector, Rest
from chaoslib.ledger import EditedTo, Erased, Op, Present
from chaoslib.workload import EDITED, HELD, VICTIMS, Run, Target, outcome

VICTIM_NOTES = 5
ERASE_AT = (0.35, 0.7)  # shares of the run's duration at which each victim is erased
PAUSE = 0.2  # between the inspector's actions: a person at a browser, not a load generator


@dataclass
class _Edits:
    """The texts one record was sent, in order, each acknowledged or not (the first is the write itself)."""

    texts: list[tuple[str, str]] = field(default_factory=list)  # (text, outcome)

    def allowed(self) -> tuple[str, ...]:
        """The last acknowledged text and every text sent after it whose answer never came."""
        last = max(i for i, (_, done) in enumerate(self.texts) if done == "acked")
        return tuple(t for i, (t, done) in enumerate(self.texts) if i == last or (i > last and done == "unresolved"))


def _form(answer: Answer, done: bool) -> str:
    """A form's outcome: acked when the page said it was done (a redirect with its message, the erase report)."""
    if done:
        return "acked"
    if answer.status is None:
        return "unresolved"
    return "failed" if answer.status >= 500 else "refused"


class InspectorWriter:
    """One thread on one server of the store (inspector sessions live in a server process)."""

    def __init__(self, run: Run, target: Target, duration: float) -> None:
        self.run, self.target = run, target
        self.rng = random.Random(run.seed * 1000 + 700)
        self.server = target.servers[0]
        self.page = Inspector(self.server, target.admin)
        self.rest = Rest(target.servers, target.admin, run.retry_for, self.rng)
        self.erase_at = [time.monotonic() + share * duration for share in ERASE_AT]
        self.edits: dict[str, _Edits] = {}

    def __call__(self) -> None:
        try:
            for victim in VICTIMS:
                self._fill(victim)
            erased = 0
            while not self.run.stop.is_set():
                if erased < len(VICTIMS) and time.monotonic() >= self.erase_at[erased]:
                    erased += self._erase(VICTIMS[erased])
                elif self.rng.random() < 0.5 or not self._approve():
                    self._edit()
                time.sleep(PAUSE)
            while erased < len(VICTIMS) and self._erase(VICTIMS[erased]):  # an erase the chaos kept from finishing
                erased += 1
            for record_id, edits in self.edits.items():
                self.run.ledger.expect(EditedTo(self.target.store, EDITED, record_id, edits.allowed()))
        finally:
            self.page.close()
            self.rest.close()

    def _fill(self, victim: str) -> None:
        """The victim's notes, a core block and a held write: rows in several tables for the erase to remove."""
        for _ in range(VICTIM_NOTES):
            text = self.run.words.note("victim")
            answer = self.rest.call(
                "POST", "/v1/memories", params={"user": victim}, body={"content": text}, key=self.run.key("v")
            )
            self.run.ledger.record(Op("rest", "victim", self.target.store, outcome(answer), int(answer.ok)))
        self.rest.call("PUT", "/v1/core/persona", params={"user": victim}, body={"limit": 100, "value": "A victim."})
        body = {"content": f"Always cite {self.run.words.unique()}", "type": "procedural", "source": "web:x.example"}
        self.rest.call("POST", "/v1/memories", params={"user": victim}, body=body, key=self.run.key("v"))

    def _erase(self, victim: str) -> int:
        form = {"target": victim, "confirm": victim}
        answer = self.page.submit("/ui/erase", [("/ui/erase", form)], self.run.retry_for)
        done = _form(answer, answer.status == 200 and "records left" in answer.text)
        detail = "" if done == "acked" else f"{answer.status}: {answer.text[:200]}"
        self.run.ledger.record(Op("inspector", "erase", self.target.store, done, 0, answer.attempts, detail),
                               Erased(self.target.store, victim))  # fmt: skip
        return int(done == "acked")

    def _approve(self) -> bool:
        try:
            pending_id, text = self.target.held.get_nowait()
        except queue.Empty:
            return False
        where = f"?user={HELD}"
        steps = [  # the review page asks for a confirmation first
            (f"/ui/review/confirm{where}", {"item": f"approve:{pending_id}"}),
            (f"/ui/review/apply{where}", {"action": "approve", "id": pending_id}),
        ]
        answer = self.page.submit(f"/ui/review{where}", steps, self.run.retry_for)
        done = _form(answer, answer.status == 303 and "done=approved" in answer.location)
        detail = "" if done == "acked" else f"{answer.status}: {answer.location or answer.text[:200]}"
        op = Op(
            "inspector",
            "approve",
            self.target.store,
            done,
            int(done == "acked"),
            answer.attempts,
            detail,
            answer.server,
        )
        self.run.ledger.record(op, Present(self.target.store, HELD, text))
        return True

    def _edit(self) -> None:
        if not self.edits or self.rng.random() < 0.3:
            text = self.run.words.note("inspected")
            answer = self.rest.call(
                "POST", "/v1/memories", params={"user": EDITED}, body={"content": text}, key=self.run.key("e")
            )
            if answer.ok and answer.body["status"] == "added":
                self.edits[answer.body["record"]["id"]] = _Edits([(text, "acked")])
            detail = "" if answer.ok else f"{answer.status}: {answer.text[:200]}"
            op = Op("rest", "note", self.target.store, outcome(answer), int(answer.ok), answer.attempts, detail)
            self.run.ledger.record(op)
            return
        record_id = self.rng.choice(list(self.edits))
        text = self.run.words.note("edited")
        where = f"?user={EDITED}"
        steps = [(f"/ui/records/{record_id}/edit{where}", {"content": text})]
        answer = self.page.submit(f"/ui/records/{record_id}{where}", steps, self.run.retry_for)
        done = _form(answer, answer.status == 303 and "done=saved" in answer.location)
        self.edits[record_id].texts.append((text, done))
        detail = "" if done == "acked" else f"{answer.status}: {answer.location or answer.text[:200]}"
        self.run.ledger.record(Op("inspector", "edit", self.target.store, done, int(done == "acked"), answer.attempts,
                                  detail, answer.server))  # fmt: skip
