"""review50: cpu per search with Weights.beyond_keyword off and on (four questions, warm searcher)."""
import time, dataclasses
from cli.common import open_searcher
kb, s = open_searcher(quiet=True)
on = s.weights; off = dataclasses.replace(on, beyond_keyword=False)
qs = ["How does menace work?", "Does hexproof stop a board wipe?", "Can a creature with flying block?", "Meine legendäre Kreatur ist unzerstörbar. Was passiert, wenn ich eine zweite mit demselben Namen ins Spiel bringe?"]
for q in qs: s.search(q, limit=5)
for name, w in [("off", off), ("on", on), ("off", off), ("on", on)]:
    s.weights = w
    t = time.process_time()
    for _ in range(5):
        for q in qs: s.search(q, limit=5)
    print(name, f"{(time.process_time()-t)/20*1000:.1f} ms cpu per search")
