# Sourced by the scripts in bin/: sets JAVA25 to a JDK 25+ home (JAVA_HOME when it is 25 or newer,
# else the newest one under /usr/lib/jvm), or fails with a message.
java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | cut -d. -f1; }
find_jdk25() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ] && [ "$(java_major "$JAVA_HOME")" -ge 25 ] 2>/dev/null; then
    JAVA25=$JAVA_HOME; return 0
  fi
  local d best="" bestv=0 v
  for d in /usr/lib/jvm/*; do
    [ -x "$d/bin/javac" ] || continue
    v=$(java_major "$d"); [ -n "$v" ] || continue
    if [ "$v" -ge 25 ] && [ "$v" -gt "$bestv" ]; then best=$d; bestv=$v; fi
  done
  if [ -z "$best" ]; then
    echo "shmem4j: no JDK 25 or newer found (JAVA_HOME=${JAVA_HOME:-unset}, none under /usr/lib/jvm)" >&2
    return 1
  fi
  JAVA25=$best
}
