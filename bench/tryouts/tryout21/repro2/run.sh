#!/bin/bash
# repro for defects 2, 3, 8 in a fresh home
# needs `kb` on PATH; SRC_HOME=DIR copies a built data directory first (else the KB is built afresh: minutes)
HERE=$(cd "$(dirname "$0")/.." && pwd)
SRC=${SRC_HOME:-}
export KB_HOME=$(mktemp -d)
[ -n "$SRC" ] && cp -r "$SRC"/. "$KB_HOME"
cd "$HERE"
echo "== defect 8: before"; kb show r-a4052a60c7 2>/dev/null | head -3
echo "== defect 3"; kb ingest --json pages/ambig-mixed.txt 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); print('notes', d['notes'], 'skipped', d['skipped'])"
sqlite3 $KB_HOME/kb.sqlite3 "select line, date from variants where source like '%ambig-mixed%'"
echo "== defect 8: after"; kb ingest pages/ambig-en.txt >/dev/null 2>&1; kb show r-a4052a60c7 2>/dev/null | head -6
echo "== defect 2"; kb ingest mkm-dogwalker.json pages/dogwalker.txt >/dev/null 2>&1; kb outdated --card "Dog Walker"
