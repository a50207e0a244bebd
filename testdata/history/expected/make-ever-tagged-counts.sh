#!/bin/sh
# Counts, with osmium alone, the elements alive on each 1 January 2008..2017 that carried a tag in
# at least one version of their history ("ever tagged"): the elements the reference services keep
# (version 1 drops never-tagged nodes, version 2 every never-tagged element).
#   usage: make-ever-tagged-counts.sh FILE.osh.pbf > REGION.ever-tagged-counts.jsonl
# 1. `osmium cat -f opl` lists every version; a version's tags are the field starting with T (empty
#    "T" = no tags; OPL escapes spaces, so fields split on spaces).
# 2. `osmium time-filter FILE T` gives the snapshot at T (newest version <= T, dropped if deleted).
# 3. The snapshot's ids of each type that are in the ever-tagged list are counted.
set -eu
file=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
osmium cat "$file" -f opl -o "$tmp/all.opl"
awk '{ for (i = 2; i <= NF; i++) if (substr($i, 1, 1) == "T") { if (length($i) > 1) print $1; break } }' "$tmp/all.opl" | sort -u > "$tmp/tagged"
for year in 2008 2009 2010 2011 2012 2013 2014 2015 2016 2017; do
  t="${year}-01-01T00:00:00Z"
  osmium time-filter "$file" "$t" -f opl -o "$tmp/snap.opl" --overwrite
  awk '{ print $1 }' "$tmp/snap.opl" | sort -u > "$tmp/snap"
  comm -12 "$tmp/snap" "$tmp/tagged" > "$tmp/both"
  n=$(grep -c '^n' "$tmp/both" || true)
  w=$(grep -c '^w' "$tmp/both" || true)
  r=$(grep -c '^r' "$tmp/both" || true)
  printf '{"timestamp":"%s","tagged_nodes":%s,"tagged_ways":%s,"tagged_relations":%s}\n' "$t" "$n" "$w" "$r"
done
