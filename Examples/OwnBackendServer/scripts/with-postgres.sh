#!/usr/bin/env bash
# Runs a command beside a fresh PostgreSQL cluster: initdb into a temporary folder (as the `postgres` user
# when run as root: PostgreSQL refuses to run as root), the server on a free loopback port, stopped and
# removed when the command ends. The command sees
#   OWN_BACKEND_TEST_DATABASE_URL  postgres://ledger@127.0.0.1:PORT/postgres (trust authentication)
#   OWN_BACKEND_TEST_PG_CONTROL    a script taking `start` or `stop` (the tests stop the database under load)
# Needs Debian's `postgresql` package (.ci/run installs it when missing).
set -euo pipefail
[ "$#" -ge 1 ] || { echo "usage: with-postgres.sh COMMAND [ARGUMENT...]" >&2; exit 64; }

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
[ -n "$bin" ] && [ -x "$bin/initdb" ] || { echo "with-postgres.sh: PostgreSQL's initdb not found (apt-get install postgresql)" >&2; exit 69; }

work=$(mktemp -d /tmp/own-backend-pg.XXXXXX)
chmod 755 "$work"
run_as_db_user=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$work"
  run_as_db_user=(runuser -u postgres --)
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

"${run_as_db_user[@]}" "$bin/initdb" -D "$work/data" -U ledger --auth=trust -E UTF8 --no-sync >"$work/initdb.log" \
  || { cat "$work/initdb.log" >&2; exit 70; }
cat >"$work/pg-control" <<CONTROL
#!/usr/bin/env bash
# start | stop: the test cluster in $work
exec ${run_as_db_user[*]} "$bin/pg_ctl" -D "$work/data" -l "$work/server.log" -w -t 60 -m fast \\
  -o "-p $port -h 127.0.0.1 -k $work -c max_connections=200" "\$1"
CONTROL
chmod 755 "$work/pg-control"

cleanup() {
  "$work/pg-control" stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
"$work/pg-control" start >/dev/null

export OWN_BACKEND_TEST_DATABASE_URL="postgres://ledger@127.0.0.1:$port/postgres"
export OWN_BACKEND_TEST_PG_CONTROL="$work/pg-control"
echo "with-postgres.sh: PostgreSQL on 127.0.0.1:$port (cluster in $work)" >&2
"$@"
