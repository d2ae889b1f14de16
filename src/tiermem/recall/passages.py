"""(internal) Passages: a record's sentences, embedded one by one, so a question finds its one sentence.

One vector for a whole turn averages its sentences: "We spent a week in Porto. The food was great and the
weather kind to us." answers "Where did Mira travel?" with its first sentence only, and the rest of the turn
pulls its vector away. Vector search scores a record by the best of its whole text and its sentences (max-sim,
as passage retrieval scores a document by its best passage). A speaker label ("Mira: ...") is kept on every
sentence: questions name the person, and the sentence alone no longer does. A transcript line and its sentences
are embedded told in the third person ("Mira: I loved it" as "Mira loved it", ``english.perspective``), as a
question about Mira asks; the stored text keeps its words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from tiermem.embed import Embedder, Vectors, pools_passages
from tiermem.english.perspective import third_person

__all__ = ["MAX_PASSAGES", "embed_with_passages", "passages"]

# A long text's sentences are grouped (consecutive ones together) into at most this many passages. The best of
# n passages rises with n by chance alone, so a long answer's many sentences would outscore a short turn that
# says what was asked (uncapped, long assistant answers pushed users' own turns down on the dev sets, which is
# why the cap exists); at 8, conversational turns (nearly all 8 sentences or fewer) keep every sentence and that
# bias stays small. It also bounds the vectors a record adds.
MAX_PASSAGES = 8
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# "Name: " opening a transcript line: one to three words, so "Here are some tips: ..." is not a speaker.
_LABEL = re.compile(r"\w[\w'.-]*(?: \w[\w'.-]*){0,2}: ")


def passages(text: str) -> list[str]:
    """The sentences of ``text`` (each with its speaker label, if any); none for a single sentence."""
    label = _LABEL.match(text)
    prefix, body = (label.group(0), text[label.end() :]) if label else ("", text)
    sentences = [s.strip() for s in _SENTENCE_END.split(body) if s.strip()]
    if len(sentences) < 2:
        return []
    if len(sentences) > MAX_PASSAGES:
        size = -(-len(sentences) // MAX_PASSAGES)
        sentences = [" ".join(sentences[i : i + size]) for i in range(0, len(sentences), size)]
    return [prefix + s for s in sentences]


def embed_with_passages(embedder: Embedder, texts: Sequence[str]) -> tuple[Vectors, list[Vectors | None]]:
    """Each text's vector, and its passages' vectors (None for a single sentence), from one batch.

    With an embedder that pools its tokens' vectors (``pools_passages``, MiniLM) a text with passages gets no
    model pass of its own: its vector is the normalised mean of its passages' vectors, close to the model's own
    vector of the whole text, so a multi-sentence text costs one pass over its tokens, not two. Any other
    embedder embeds the whole text as well.
    """
    split = [passages(t) for t in texts]
    pooled = pools_passages(embedder)
    # A transcript line is embedded as told in the third person, the way a question about its speaker asks.
    whole = [third_person(t) for t, parts in zip(texts, split, strict=True) if not (pooled and parts)]
    flat = [third_person(p) for parts in split for p in parts]
    vectors = embedder.embed_batch([*whole, *flat])
    out: list[Vectors | None] = []
    own: list[Vectors] = []
    single, start = 0, len(whole)
    for parts in split:
        if parts:
            block = np.ascontiguousarray(vectors[start : start + len(parts)])
            out.append(block)
            start += len(parts)
        else:
            out.append(None)
        if pooled and parts:
            own.append(_unit(block.mean(axis=0)))
        else:
            own.append(vectors[single])
            single += 1
    matrix = np.stack(own).astype(np.float32) if own else np.zeros((0, embedder.dim), dtype=np.float32)
    return matrix, out


def _unit(vector: Vectors) -> Vectors:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector
