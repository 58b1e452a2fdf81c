#!/bin/sh
sqlite3 -separator ' | ' /work/s40/tryout29-home/kb.sqlite3 "select entry_id, relation, round(similarity,2), date, lang, card, replace(substr(source, instr(source,'pages/')+6),'bench/tryouts/tryout29/',''), line, substr(text,1,${W:-90}) from variants where source like '%tryout29%' order by source, line"
