#!/usr/bin/env bash
# Builds the relocatable distribution from the jars the reactor just made (the dist module's
# package phase): OUT/shmem4j-VERSION/ and OUT/shmem4j-VERSION.tar.gz, holding bin/ (oshrun finds
# lib/ beside itself), lib/, examples/ (jar and sources), docs/c-to-java.md, LICENSE and README.md.
# A script rather than maven-assembly-plugin: tar is everywhere, and the build stays offline-able.
# Usage: dist/build.sh VERSION OUT
set -euo pipefail
version=$1
out=$2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
name=shmem4j-$version
jars=("$root/core/target/shmem4j.jar" "$root/launcher/target/shmem4j-launcher.jar" "$root/examples/target/shmem4j-examples.jar")
for jar in "${jars[@]}"; do
  [ -f "$jar" ] || { echo "dist/build.sh: $jar is not built (build the dist module with the others)" >&2; exit 1; }
done
d=$out/$name
rm -rf "$d" "$d.tar.gz"
mkdir -p "$d/bin" "$d/lib" "$d/examples" "$d/docs"
install -m 0755 "$root/bin/oshrun" "$root/bin/shmem4j-info" "$root/bin/jdk25.sh" "$d/bin/"
install -m 0644 "${jars[0]}" "${jars[1]}" "$d/lib/"
install -m 0644 "${jars[2]}" "$d/examples/"
cp -R "$root/examples/src/main/java" "$d/examples/src"
install -m 0644 "$root/LICENSE" "$d/"
install -m 0644 "$root/docs/c-to-java.md" "$d/docs/"
install -m 0644 "$root/dist/src/dist/README.md" "$d/README.md"
tar -C "$out" --sort=name --owner=0 --group=0 --numeric-owner -czf "$d.tar.gz" "$name"
