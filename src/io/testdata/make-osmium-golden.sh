#!/bin/sh
# Writes, as JSON on stdout, what osmium says about every full-history file in DATA_DIR:
# per type the number of versions and the first/last timestamp (`osmium fileinfo -e -j`), and
# per type the number of deleted versions (visible=false), which fileinfo does not report, so
# they are counted from osmium's own OPL rendering (`osmium cat -f opl`, flag "dD").
#
# The reader tests compare maphist's readers with this. Regenerate after the data changes:
#   sh src/io/testdata/make-osmium-golden.sh > src/io/testdata/osmium-fileinfo.json
# (the test also re-runs this script when osmium is installed and fails if the file is stale).
set -eu
DATA_DIR="${1:-testdata/history}"

for f in "$DATA_DIR"/*.osh.pbf "$DATA_DIR"/*.osh.gz; do
  printf '%s\t' "$(basename "$f")"
  osmium fileinfo -e -j "$f" | tr -d '\n'
  printf '\t'
  osmium cat -f opl "$f" | awk '$3 == "dD" { d[substr($1, 1, 1)]++ } END { printf "%d %d %d\n", d["n"], d["w"], d["r"] }'
done | node -e '
  const lines = require("fs").readFileSync(0, "utf8").trim().split("\n");
  const files = {};
  for (const line of lines) {
    const [name, info, deleted] = line.split("\t");
    const { data } = JSON.parse(info);
    const [n, w, r] = deleted.split(" ").map(Number);
    files[name] = {
      versions: { node: data.count.nodes, way: data.count.ways, relation: data.count.relations },
      deletedVersions: { node: n, way: w, relation: r },
      firstTimestamp: data.timestamp.first,
      lastTimestamp: data.timestamp.last,
    };
  }
  const osmium = process.argv[1];
  process.stdout.write(JSON.stringify({ osmium, files }, null, 2) + "\n");
' "$(osmium --version | head -1)"
