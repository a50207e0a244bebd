#!/usr/bin/env bash
# A ClickHouse cluster on loopback for maphist's tests and benchmarks (issue 19): two shards, each its
# own clickhouse-server process (Debian's package, 18.16, or any later server) with its configuration,
# data and logs under DIR. `start` prints each shard's HTTP URL, one per line, the first being the
# entry node (the loader creates the Distributed table there); `stop` stops them and keeps DIR.
#
#   scripts/clickhouse-cluster.sh start DIR [SHARDS]    (SHARDS: 2 by default)
#   scripts/clickhouse-cluster.sh stop DIR
#
# Ports: HTTP 18123 + i, native 19000 + i, interserver 19100 + i for shard i (0, 1, …), or from
# MAPHIST_CH_BASE_PORT (HTTP base; native = base + 877, interserver = base + 977). The cluster is named
# `maphist` in every shard's remote_servers, so a Distributed table on any shard reaches all of them.
# No ZooKeeper: tables are created on each shard directly (docs/clickhouse.md).
set -euo pipefail

cmd="${1:-}"
dir="${2:-}"
if [[ -z "$cmd" || -z "$dir" ]]; then
  echo "usage: $0 start|stop DIR [SHARDS]" >&2
  exit 2
fi
server="$(command -v clickhouse-server || true)"
if [[ -z "$server" ]]; then
  echo "$0: clickhouse-server not found (Debian: apt-get install clickhouse-server)" >&2
  exit 3
fi
base="${MAPHIST_CH_BASE_PORT:-18123}"

stop() {
  local any=0
  for pidfile in "$dir"/shard*/server.pid; do
    [[ -f "$pidfile" ]] || continue
    any=1
    local pid
    pid="$(cat "$pidfile")"
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid"
      for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
      kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
    fi
    rm -f "$pidfile"
  done
  [[ $any == 1 ]] || echo "$0: no running shard under $dir" >&2
}

start() {
  local shards="${1:-2}"
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  local remote=""
  for ((i = 0; i < shards; i++)); do
    remote+="<shard><replica><host>127.0.0.1</host><port>$((base + 877 + i))</port></replica></shard>"
  done
  for ((i = 0; i < shards; i++)); do
    local d="$dir/shard$i"
    mkdir -p "$d/data" "$d/tmp" "$d/user_files" "$d/format_schemas" "$d/log"
    cat >"$d/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$d/log/server.log</log><errorlog>$d/log/error.log</errorlog><size>50M</size><count>2</count></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$((base + i))</http_port>
  <tcp_port>$((base + 877 + i))</tcp_port>
  <interserver_http_port>$((base + 977 + i))</interserver_http_port>
  <path>$d/data/</path>
  <tmp_path>$d/tmp/</tmp_path>
  <user_files_path>$d/user_files/</user_files_path>
  <format_schema_path>$d/format_schemas/</format_schema_path>
  <users_config>$d/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <max_concurrent_queries>100</max_concurrent_queries>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <remote_servers><maphist>$remote</maphist></remote_servers>
</yandex>
XML
    cat >"$d/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>4000000000</max_memory_usage><load_balancing>random</load_balancing></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
XML
    if [[ -f "$d/server.pid" ]] && kill -0 "$(cat "$d/server.pid")" 2>/dev/null; then
      continue
    fi
    # `exec`: the pid recorded is the server's; no shell stays behind holding this script's output open.
    (cd "$d" && exec "$server" --config-file="$d/config.xml") </dev/null >"$d/log/stdout.log" 2>&1 &
    echo $! >"$d/server.pid"
  done
  for ((i = 0; i < shards; i++)); do
    local url="http://127.0.0.1:$((base + i))"
    local ok=0
    for _ in $(seq 1 300); do
      if [[ "$(curl -s "$url/ping" 2>/dev/null || true)" == "Ok." ]]; then
        ok=1
        break
      fi
      sleep 0.1
    done
    if [[ $ok != 1 ]]; then
      echo "$0: shard $i did not answer at $url within 30 s; its log: $dir/shard$i/log" >&2
      tail -n 20 "$dir/shard$i/log/stdout.log" "$dir/shard$i/log/error.log" >&2 2>/dev/null || true
      exit 1
    fi
    echo "$url"
  done
}

case "$cmd" in
  start) start "${3:-2}" ;;
  stop) stop ;;
  *)
    echo "usage: $0 start|stop DIR [SHARDS]" >&2
    exit 2
    ;;
esac
