#!/bin/bash
# repro for defect 1: edit the English ruling of my page, old id lands on the German translation
# needs `kb` on PATH; SRC_HOME=DIR copies a built data directory first (else the KB is built afresh: minutes)
HERE=$(cd "$(dirname "$0")/.." && pwd)
SRC=${SRC_HOME:-}
export KB_HOME=$(mktemp -d)
[ -n "$SRC" ] && cp -r "$SRC"/. "$KB_HOME"
cd "$HERE/repro1"
cp ../pages/mastery.v3.txt mastery.txt
kb ingest mastery.txt >/dev/null 2>&1
OLD=$(kb list --card "Mastery of the Unseen" --json 2>/dev/null | python3 -c "import json,sys; print([e['id'] for e in json.load(sys.stdin) if e['text'].startswith('The number of creatures')][0])")
echo "old id: $OLD"; kb show $OLD | head -12
cp ../pages/mastery.v4.txt mastery.txt
kb ingest mastery.txt 2>&1 | grep -i note
kb show $OLD | head -12
kb list --card "Mastery of the Unseen" | grep -A2 "Mastery of the Unseen's first"
