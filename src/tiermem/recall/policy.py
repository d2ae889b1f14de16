"""RecallPolicy: what a user sets of recall; ``recall.pipeline.Pipeline.of`` turns it into the pipeline's stages."""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass, replace

from tiermem.errors import ValidationError
from tiermem.recall.factors import DEFAULT_FACTORS, DEFAULT_GUARDS, ScoreFactor
from tiermem.recall.floor import DEFAULT_MIN_RELEVANCE
from tiermem.recall.fusion import Fusion

__all__ = ["DEFAULT_MIN_RELEVANCE", "MAX_STREAM_WINDOW", "RecallPolicy"]

MAX_STREAM_WINDOW = 1000
"""The widest stream window: recall counts up to this many records in each gap between two hits, per question."""

# The fields that set a parameter of one of the factors: field -> (factor name, the factor's parameter).
_FACTOR_FIELDS = {
    "recency_weight": ("recency", "weight"),
    "recency_half_life_days": ("recency", "half_life_days"),
    "trust_floor": ("trust", "floor"),
    "first_hand_weight": ("first_hand", "weight"),
    "speaker_weight": ("speaker", "weight"),
    "date_weight": ("named_day", "weight"),
    "date_half_life_days": ("named_day", "half_life_days"),
}


@dataclass(frozen=True, slots=True)
class RecallPolicy:
    """The knobs of ranking; where a value was fitted on the dev sets, it says so.

    Recall runs these as a pipeline of stages, each holding its own parameters (``recall.pipeline``). The
    factor fields (``recency_weight``, ``recency_half_life_days``, ``trust_floor``, ``first_hand_weight``,
    ``speaker_weight``, ``date_weight``, ``date_half_life_days``) set that parameter of the factor of that name
    in ``factors``; left None, the factor keeps its own (``Trust(floor=0.5)``), the defaults named below.

    - ``rrf_k`` 60 is the constant of Cormack et al.'s reciprocal-rank fusion (from the literature).
    - Each signal proposes ``candidates`` ids (at least k). Imputed ranks: a record a signal did not list is
      ranked below its list (at ``candidates + 1``), not nowhere; without that, a record 20th and 40th in the
      two lists outscores one first in one list and missing from the other.
    - Phrases: adjacent query words (stop words dropped) found side by side in a record are a third, weaker
      list, as in Metzler & Croft's sequential dependence model; ``phrase_weight`` is that model's weight of
      ordered pairs against single words (0.10 / 0.85, from the literature).
    - Perspective: a transcript's turns are in their speakers' first person ("Ann: I got my boy a bike"), but a
      question about one of them is in the third person ("What did Ann give her son?"), and its vector sits
      nearer to talk *about* Ann. The write path embeds such a line told in the third person ("Ann got Ann's
      boy a bike", ``recall.passages``), so one query vector finds it. ``perspective_weight`` > 0 also asks a
      question naming one speaker among its best full-text matches as that speaker would ("What did I give my
      son?", ``perspective.first_person``): a fourth list at that weight, a second query vector in the same
      model call. Off (0) by default since lines are told in the third person: on the dev conversations it then
      lost recall and cost time; 1 helps a store whose lines were embedded before that (as written).
    - ``factors`` re-score the fused list, each multiplying a record's score by its part's contribution, in
      order; ``guards`` then demote records of the finished ranking (after newer facts first, below), from the
      top down as far as the k best need (see ``recall.factors``; add or drop one with ``with_factor`` /
      ``without_factor``). The defaults:
    - Recency multiplies by ``1 + recency_weight * 2^(-age / half_life)``; off (0) by default, a choice made on
      the dev sets (it lost recall there and gained nowhere): fused scores are close (ranks 1 and 10 differ by
      13%), so even a factor of 1.1 is a ranker, not a tie-breaker. What is current comes first by other means:
      newer facts above the facts they replace (below), and the days a question names ("yesterday").
    - Trust multiplies by ``trust_floor + (1 - trust_floor) * trust``: a web note (0.3) keeps 65% of its score.
    - First hand: a question about the user ("what did I buy", "my garden") is answered by what the user said,
      and the agent's replies echo the user's words ("With your half-hour ride, audiobooks..."): among events
      (episodic records), the agent's are multiplied by ``first_hand_weight`` (score part ``first_hand``). Facts
      and procedures keep their score (an agent's note of the user's preference is the memory written for that
      question), and so do tool and web events (no echo; trust already ranks them, and a booking tool's output
      may hold the answer). A question about what the agent said ("you recommended", "our last chat") is left
      alone. 0.8, fitted on the dev sets, demotes like a tie-breaker, not a filter.
    - Named speaker: in a group chat or a transcript a record may say who said it (source ``user:Ann``). A
      question naming one of the candidates' speakers ("What did Ann say about the trip?", "Ann's pets") is
      answered by what that person said: events by the other named speakers are multiplied by
      ``speaker_weight`` (score part ``speaker``). Unnamed sources and facts keep their score; a question naming
      two speakers, or none, changes nothing. A user's note that opens with a transcript label ("Bo: ...") is
      what Bo said, whatever its type (``recall.speakers``). 0.9, fitted on the dev sets, demotes without filtering.
    - Named days: a question that names a day ("on 3 March, 2024", "March 3rd", "between July 2 and July 6,
      2024", "in June 2024", "in late June", "yesterday", "last Friday", "3 days ago") is about what happened
      then, so a record's score is multiplied by ``1 + date_weight * 2^(-days / date_half_life_days)``, ``days``
      its ``valid_from``'s distance from the days named (0 within them): a record of that day counts double, one
      a day off 1.5 times (an event is often told a day or two after it); both values were checked on the dev
      sets. A fact is as near as its validity (a fact true from 2021 until now was true in June 2024). Days are
      read in ``now``'s time zone. Score part ``named_day``; the words still decide within the day.
    - Session evidence: a turn of a conversation counts more when its session holds the query's best
      matches: each of the best ``max(3k, k + 20)`` hits is multiplied by ``1 + session_weight * b / top``,
      ``b`` its session's best score among them, ``top`` the best of all (score part ``session``; a record
      without a session is its own); the passage-and-document combination of passage retrieval, with a
      session as the document (``recall.sessions``). 0.5 was chosen on the dev conversations, in a range
      (0.2-1.0) where recall moved little.
    - A turn with no session (a transcript line or message written without one, linked by the write path to
      the turn before) takes as its document the turns written within ``stream_window`` of the user's records
      on either side (a sliding window). 15 was chosen on the dev conversations written without sessions, in a
      range (5-30) where recall moved little; 0 makes each such turn its own document.
    - Neighbour evidence: in a chat the answer is often split over two adjacent turns, so among the same
      short list, a hit is multiplied by ``1 + neighbour_weight * n / top``, ``n`` the best score of the hits
      it follows or is followed by in its session, said by the same kind of source (the write path's search
      context names the turn before; score part ``neighbour``, ``recall.neighbours``). 0.1 was chosen on the
      dev conversations (0.05-0.3 all gained; recall@5 most).
    - Quarantine (a default guard): a note quarantined at write time (``write.scan``) is left out of recall
      unless asked for (``include_quarantined``); then, and for a note with no stored verdict that the read-time
      check finds directive-shaped (``trust.read_time``), it keeps ``trust.QUARANTINE_FACTOR`` of its score (score
      part ``quarantine``, flag ``quarantined``), in ``Memory.recall`` exactly as the agent's tools applied it.
    - Suspicious (a default guard): a note the write path found suspicious keeps ``trust.SUSPICIOUS_FACTOR`` of its
      score (score part and flag ``suspicious``). Both guards read the verdict stored at write time.
    - Newer facts first: facts hold until replaced, so when two retrieved facts compete to answer the query
      (one topic: embedding cosine ≥ ``update_cosine``, or the newer one contains every word of the question
      beyond names that the older one contains; the same subject, or the same statement about another person;
      and the newer one's score within ``competing_ratio`` of the older's), the newest is ranked just above
      the older even when the write-time detector was too cautious to close it (score part ``newer_fact``;
      flag ``possibly_outdated`` on the older). Both thresholds were set on the knowledge-update dev set. A
      fact that closed an older one competes wherever that one would have: it is its current version; a closed
      fact's fused rank is handed to that version (score part ``current_version``) and the closed fact
      dropped. Nothing is hidden; ``as_of`` asks about the past; events (episodic) are never reordered.
      ``credit_current`` False leaves closed facts out of the candidates instead: where a newer version
      replaces a record's text (the LangGraph store's items, identified by key), the old text no longer finds it.
    - Relevance floor: every hit gets a ``relevance`` (``recall.relevance``: its best cosine and the rarity-weighted
      share of the query's words it holds, calibrated on data); with ``min_relevance`` set, hits below it are
      dropped from the k best, so a query about nothing memory holds comes back empty. None (the default) keeps
      the top k whatever their relevance; the agent's memory tools use ``DEFAULT_MIN_RELEVANCE``.
    """

    rrf_k: int = 60
    candidates: int = 50
    keyword_weight: float = 1.0
    vector_weight: float = 1.0
    phrase_weight: float = 0.10 / 0.85
    recency_half_life_days: float | None = None
    recency_weight: float | None = None
    trust_floor: float | None = None
    first_hand_weight: float | None = None
    speaker_weight: float | None = None
    perspective_weight: float = 0.0
    date_weight: float | None = None
    date_half_life_days: float | None = None
    session_weight: float = 0.5
    neighbour_weight: float = 0.1
    stream_window: int = 15
    update_cosine: float = 0.5
    competing_ratio: float = 0.9
    credit_current: bool = True
    min_relevance: float | None = None
    factors: tuple[ScoreFactor, ...] = DEFAULT_FACTORS
    guards: tuple[ScoreFactor, ...] = DEFAULT_GUARDS

    def __post_init__(self) -> None:
        window = self.stream_window
        if isinstance(window, bool) or not isinstance(window, int) or not 0 <= window <= MAX_STREAM_WINDOW:
            raise ValidationError(
                "stream_window",
                f"must be a whole number of records from 0 to {MAX_STREAM_WINDOW}",
                given=window,
                limit=MAX_STREAM_WINDOW,
            )
        if self.min_relevance is not None and not 0.0 <= self.min_relevance <= 1.0:
            raise ValidationError(
                "min_relevance", "must be from 0 to 1, or None for no floor", given=self.min_relevance
            )
        names = [f.name for f in (*self.factors, *self.guards)]
        doubled = sorted({n for n in names if names.count(n) > 1})
        if doubled:
            raise ValidationError("factors", "each factor name may appear once", given=", ".join(doubled))
        object.__setattr__(self, "factors", self._with_fields(self.factors))

    def _with_fields(self, factors: tuple[ScoreFactor, ...]) -> tuple[ScoreFactor, ...]:
        """``factors`` with the parameters this policy's factor fields set (a field left None changes nothing)."""
        given = {f.name: getattr(self, f.name) for f in fields(self) if f.name in _FACTOR_FIELDS}
        out = list(factors)
        for field_name, value in given.items():
            if value is None:
                continue
            factor_name, parameter = _FACTOR_FIELDS[field_name]
            at = next((i for i, f in enumerate(out) if f.name == factor_name), None)
            if at is None:
                raise ValidationError(field_name, f"sets the {factor_name} factor, which this policy does not hold")
            if not is_dataclass(out[at]):
                raise ValidationError(field_name, f"sets a parameter of the {factor_name} factor, which has none")
            out[at] = replace(out[at], **{parameter: value})  # type: ignore[type-var]
        return tuple(out)

    def with_factor(self, factor: ScoreFactor) -> RecallPolicy:
        """This policy with ``factor`` applied after the other factors (before the guards)."""
        return replace(self, factors=(*self.factors, factor))

    def without_factor(self, name: str) -> RecallPolicy:
        """This policy without the factor or guard called ``name`` (its part no longer appears)."""
        known = [f.name for f in (*self.factors, *self.guards)]
        if name not in known:
            raise ValidationError("factor", f"is not one of this policy's factors ({', '.join(known)})", given=name)
        return replace(
            self,
            factors=tuple(f for f in self.factors if f.name != name),
            guards=tuple(f for f in self.guards if f.name != name),
            **{field: None for field, (factor, _) in _FACTOR_FIELDS.items() if factor == name},  # type: ignore[arg-type]
        )

    def fusion(self) -> Fusion:
        """This policy's fusion: its constant and the lists' weights."""
        return Fusion(self.rrf_k, self.keyword_weight, self.vector_weight, self.phrase_weight, self.perspective_weight)
