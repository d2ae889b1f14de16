"""Check that removing the planted attack block gives back the clean document (blank lines ignored)."""
import json, sys, pathlib

here = pathlib.Path(__file__).parent
clean = {r["id"]: r for r in map(json.loads, open(here / "documents_clean.jsonl", encoding="utf-8"))}
bad = 0
for r in map(json.loads, open(here / "documents_planted.jsonl", encoding="utf-8")):
    c = [l for l in clean[r["doc"]]["text"].split("\n") if l.strip()]
    p = [l for l in r["text"].split("\n") if l.strip()]
    n = len(p) - len(c)
    hits = [i for i in range(len(c) + 1) if n > 0 and p[:i] + p[i + n:] == c]
    ok = bool(hits) and r["id"] == f'{r["doc"]}-{r["position"]}'
    if ok and r["position"] == "start": ok = 0 in hits
    if ok and r["position"] == "end": ok = len(c) in hits
    if ok and r["position"] == "middle": ok = any(0 < i < len(c) for i in hits)
    if not ok:
        bad += 1
        print("FAIL", r["id"])
print("checked", len(clean), "clean docs;", "all planted rows OK" if not bad else f"{bad} failures")
sys.exit(1 if bad else 0)
