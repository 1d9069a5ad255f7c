#!/usr/bin/env bash
# bench/jmh/run.sh [JMH ARGS] - runs the JMH benchmarks (build: bin/mvn25 -q -Pjmh -pl bench/jmh -am package -DskipTests)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../bin/jdk25.sh"
find_jdk25
jar="$here/target/benchmarks.jar"
[ -f "$jar" ] || { echo "bench/jmh/run.sh: $jar missing; build it with bin/mvn25 -q -Pjmh -pl bench/jmh -am package -DskipTests" >&2; exit 2; }
exec "$JAVA25/bin/java" --add-modules jdk.incubator.vector -jar "$jar" "$@"
