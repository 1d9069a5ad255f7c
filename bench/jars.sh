# bench/jars.sh - sourced by bench/run.sh and bench/plot.sh (from the project root): the jars the
# benchmarks and the report tool run from, built when missing or older than a source or pom.
jar=bench/target/shmem4j-bench.jar
core=core/target/shmem4j.jar
launcher=launcher/target/shmem4j-launcher.jar    # bin/oshrun runs it

# build_if_stale NAME: build core, launcher and bench if a jar is missing or stale (NAME is the
# calling script, for its messages); exits on a failed build
build_if_stale() {
    local stale=""
    if [ ! -f "$jar" ] || [ ! -f "$core" ] || [ ! -f "$launcher" ]; then
        stale=yes
    elif [ -n "$(find core/src core/pom.xml launcher/src launcher/pom.xml bench/src bench/pom.xml pom.xml \
            -newer "$jar" -type f -print -quit 2>/dev/null)" ]; then
        stale=yes
    fi
    if [ -n "$stale" ]; then
        echo "$1: building core, launcher and bench" >&2
        bin/mvn25 -q -o -pl bench,launcher -am package -DskipTests >&2 \
            || bin/mvn25 -q -pl bench,launcher -am package -DskipTests >&2 \
            || { echo "$1: build failed" >&2; exit 1; }
    fi
}
