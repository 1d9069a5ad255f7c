#!/usr/bin/env bash
# Uses the distribution as a user who has only it and a JDK 25 would: unpacks the tarball into a
# temporary directory, and from another directory compiles a program against lib/ with javac, runs
# it on 4 PEs with bin/oshrun, runs an example, and asks bin/oshrun --version and bin/shmem4j-info.
# Then the same program as a module on the module path (java -p lib -m, in one JVM, as in-process
# PEs and as an oshrun job), and a module that reaches the library's internals, which javac refuses.
# Run by the dist module's integration-test phase (mvn verify); usage: dist/check.sh TARBALL
set -euo pipefail
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/unpacked" "$tmp/work"
tar -xzf "$tarball" -C "$tmp/unpacked"
dist=$(echo "$tmp"/unpacked/shmem4j-*)
fail() { echo "FAIL: distribution: $*" >&2; exit 1; }
for f in LICENSE README.md bin/oshrun bin/shmem4j-info lib/shmem4j.jar lib/shmem4j-launcher.jar \
    examples/shmem4j-examples.jar examples/src/org/shmem4j/examples/Hello.java docs/c-to-java.md; do
  [ -e "$dist/$f" ] || fail "$f is missing"
done
grep -q 'Apache License' "$dist/LICENSE" || fail "LICENSE is not the Apache License"

cd "$tmp/work"
. "$dist/bin/jdk25.sh"
find_jdk25
cat > Ring.java <<'JAVA'
import java.lang.foreign.ValueLayout;
import org.shmem4j.Shmem;
import org.shmem4j.SymmetricIntArray;

public class Ring {
    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe(), n = shmem.nPes();
            try (SymmetricIntArray got = shmem.calloc(ValueLayout.JAVA_INT, 1)) {
                shmem.p(got, 0, me, (me + 1) % n);
                shmem.barrierAll();
                System.out.println("PE " + me + " of " + n + " got " + got.get(0));
            }
        }
    }
}
JAVA
"$JAVA25/bin/javac" -cp "$dist/lib/shmem4j.jar" -d classes Ring.java
out=$("$dist/bin/oshrun" -n 4 --oversubscribe --timeout 60 -cp classes Ring | sort)
expected=$(printf 'PE 0 of 4 got 3\nPE 1 of 4 got 0\nPE 2 of 4 got 1\nPE 3 of 4 got 2')
[ "$out" = "$expected" ] || fail "Ring on 4 PEs printed:
$out"
echo "distribution: javac against lib/ and bin/oshrun -n 4 from $tmp/work:"
echo "$out" | sed 's/^/  /'

out=$("$dist/bin/oshrun" -n 2 --timeout 60 -cp "$dist/examples/shmem4j-examples.jar" org.shmem4j.examples.Hello | sort)
[ "$out" = "$(printf 'Hello from PE 0 of 2\nHello from PE 1 of 2')" ] || fail "the Hello example printed:
$out"


# The module path: module app requires org.shmem4j; the same Ring, and Ring on in-process PEs.
mkdir -p src/app/app src/bad/bad
printf 'module app {\n    requires org.shmem4j;\n}\n' > src/app/module-info.java
{ echo 'package app;'; cat Ring.java; } > src/app/app/Ring.java
cat > src/app/app/Threads.java <<'JAVA'
package app;
import java.time.Duration;
import java.util.Map;
import org.shmem4j.inprocess.InProcessJob;
public class Threads {
    public static void main(String[] args) {
        // args[0]: pseudo-nodes (PEs of different nodes talk through the network engine, UCX)
        Map<String, String> env = Map.of("SHMEM4J_INPROCESS_NODES", args.length > 0 ? args[0] : "1");
        InProcessJob.run(3, env, Duration.ofSeconds(60), () -> Ring.main(args)).orThrow();
        System.out.println("library module: " + org.shmem4j.Shmem.class.getModule().getName());
    }
}
JAVA
"$JAVA25/bin/javac" -p "$dist/lib" -d mods/app $(find src/app -name '*.java')
out=$("$JAVA25/bin/java" -p "$dist/lib:mods" -m app/app.Ring 2>&1)
[ "$out" = "PE 0 of 1 got 0" ] || fail "Ring on the module path (java -p lib:mods -m app/app.Ring) printed:
$out"
out=$("$JAVA25/bin/java" -p "$dist/lib:mods" -m app/app.Threads 2>&1 | LC_ALL=C sort)
expected=$(printf 'PE 0 of 3 got 2\nPE 1 of 3 got 0\nPE 2 of 3 got 1\nlibrary module: org.shmem4j')
[ "$out" = "$expected" ] || fail "in-process Ring on the module path printed:
$out"
out=$("$dist/bin/oshrun" -n 3 --oversubscribe --timeout 60 -p mods -m app/app.Ring 2>&1 | sort)
expected=$(printf 'PE 0 of 3 got 2\nPE 1 of 3 got 0\nPE 2 of 3 got 1')
[ "$out" = "$expected" ] || fail "oshrun -n 3 -p mods -m app/app.Ring printed:
$out"
# Native access denied: the network engine's message names the flag of the library's module.
out=$("$JAVA25/bin/java" --illegal-native-access=deny -p "$dist/lib:mods" -m app/app.Threads 2 2>&1) && fail "a job on 2 nodes without native access ran"
grep -q 'native access is denied.*run Java with --enable-native-access=org.shmem4j ' <<<"$out" || fail "a job on 2 nodes without native access printed:
$out"
echo "distribution: module app on the module path: java -m (1 PE), 3 in-process PEs, oshrun -n 3 -m, the native-access flag named: OK"
# The runtime is not exported: a module that uses it does not compile.
printf 'module bad {\n    requires org.shmem4j;\n}\n' > src/bad/module-info.java
cat > src/bad/bad/Main.java <<'JAVA'
package bad;
public class Main {
    public static void main(String[] args) {
        System.out.println(org.shmem4j.core.Runtimes.queryInitialized());
    }
}
JAVA
if out=$("$JAVA25/bin/javac" -p "$dist/lib" -d mods/bad $(find src/bad -name '*.java') 2>&1); then
  fail "a module using org.shmem4j.core compiled"
fi
grep -q 'package org.shmem4j.core is not visible' <<<"$out" || fail "javac refused module bad for another reason:
$out"
echo "distribution: a module reaching org.shmem4j.core does not compile (package not visible): OK"

version=$("$dist/bin/oshrun" --version)
[[ "$version" == "shmem4j "*", OpenSHMEM 1.6" ]] || fail "oshrun --version printed: $version"
info=$("$dist/bin/shmem4j-info")
grep -qx "  library: *$dist/lib/shmem4j.jar" <<<"$info" || fail "shmem4j-info does not name lib/shmem4j.jar:
$info"
grep -q '^  SHMEM_SYMMETRIC_SIZE ' <<<"$info" || fail "shmem4j-info lists no parameters"
echo "distribution: OK ($version)"
