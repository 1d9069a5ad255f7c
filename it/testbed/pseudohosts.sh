#!/usr/bin/env bash
# Pseudo-hosts: K "hosts" on this machine that share nothing but a network, for multi-host tests.
#
#   pseudohosts.sh [-p PREFIX] up K       make hosts PREFIX-h0 .. PREFIX-h<K-1>, each with an sshd
#   pseudohosts.sh [-p PREFIX] slurm      a two-node Slurm on PREFIX-h0 (controller) and PREFIX-h1
#   pseudohosts.sh [-p PREFIX] exec HOST CMD...   run CMD on HOST, in this directory (SLURM_CONF set once slurm is up)
#   pseudohosts.sh [-p PREFIX] crash HOST  kill HOST at once, as a power failure would: its link
#                                          goes down first, so peers see no FIN and no RST
#   pseudohosts.sh [-p PREFIX] pid HOST   print the pid (in this namespace) of HOST's init
#   pseudohosts.sh [-p PREFIX] hosts      print the host names, one a line
#   pseudohosts.sh [-p PREFIX] ssh-config print the path of the ssh client configuration
#   pseudohosts.sh [-p PREFIX] down       tear everything down (also after a failed or partial up)
#
# PREFIX (option -p, else $SHMEM4J_TESTBED) names everything the testbed creates outside its hosts
# (network namespaces PREFIX-h<i> and PREFIX-sw, state directory /run/shmem4j-testbed/PREFIX), so
# several testbeds can exist at once; `up` without one picks a fresh prefix and prints
# "SHMEM4J_TESTBED=<prefix>" first.
#
# A host is a set of private namespaces: net (lo, and eth0, a veth into a bridge in the namespace
# PREFIX-sw; address 169.254.77.<i+1>/24, link-local, no default route: nothing outside the testbed
# is reachable), mount (own tmpfs on /dev/shm, /tmp and /root: a fresh root home, without the
# machine's shell start-up files), uts (hostname PREFIX-h<i>), ipc and pid. The checkout this
# script belongs to, and the directories listed in $SHMEM4J_TESTBED_SHARE (colon-separated), stay
# visible at their own paths on every host, also when they lie under /tmp or /root.
# Its pid 1 is a small bash init; killing it kills everything running on the host. /etc/hosts is
# bind-mounted with every host's name. sshd: one per host with throw-away keys made at `up`,
# key-only, root allowed; `ssh -F $(pseudohosts.sh ssh-config) HOST CMD` works without prompts
# from every host. Needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN), iproute2, util-linux, openssh-server,
# and for `slurm` the slurm-wlm package (munge, slurmctld, slurmd).
set -euo pipefail

SUBNET=169.254.77
prefix=${SHMEM4J_TESTBED:-}
if [ "${1:-}" = -p ]; then prefix=$2; shift 2; fi
cmd=${1:-}; shift || true

die() { echo "pseudohosts.sh: $*" >&2; exit 2; }
need_prefix() {
  [ -n "$prefix" ] || die "no testbed named: give -p PREFIX or set SHMEM4J_TESTBED"
  [[ $prefix =~ ^[a-z][a-z0-9]{0,11}$ ]] || die "prefix '$prefix' must be 1-12 of [a-z0-9], starting with a letter"
  STATE=/run/shmem4j-testbed/$prefix
}
host_pid() { cat "$STATE/$1.pid" 2>/dev/null || die "no host $1 in testbed $prefix"; }
# Runs CMD inside every namespace of HOST (pid ns included: nsenter forks).
on() { local h=$1; shift; nsenter -t "$(host_pid "$h")" -a -- "$@"; }

up() {
  local k=$1 i h
  [[ $k =~ ^[1-9][0-9]?$ ]] || die "up needs a number of hosts (1-99), not '$k'"
  [ ! -e "$STATE" ] || die "testbed $prefix exists already ($STATE); run down first"
  mkdir -p "$STATE" /run/sshd
  local shares checkout
  checkout=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  shares="$checkout${SHMEM4J_TESTBED_SHARE:+:$SHMEM4J_TESTBED_SHARE}"
  trap 'echo "pseudohosts.sh: up failed; tearing down" >&2; down' ERR
  ip netns add "$prefix-sw"
  ip -n "$prefix-sw" link add br0 type bridge
  ip -n "$prefix-sw" link set br0 up
  { echo "127.0.0.1 localhost"; for ((i = 0; i < k; i++)); do echo "$SUBNET.$((i + 1)) $prefix-h$i"; done; } > "$STATE/hosts"
  for ((i = 0; i < k; i++)); do
    h=$prefix-h$i
    ip netns add "$h"
    # Both ends are created inside their namespaces: no interface name appears in the root one.
    ip link add eth0 netns "$h" type veth peer name "p$i" netns "$prefix-sw"
    ip -n "$prefix-sw" link set "p$i" master br0 up
    ip -n "$h" link set lo up
    ip -n "$h" addr add "$SUBNET.$((i + 1))/24" dev eth0
    ip -n "$h" link set eth0 up
    # The host's init. `ip netns exec` remounts /sys without the cgroup hierarchies slurmd needs:
    # mount them again (v1, as the kernel offers them). Bash as pid 1 reaps orphans; a pid 1
    # ignores signals it has no handler for, hence the trap.
    # The shared directories are held by bind mounts under the state directory while the host's
    # own /tmp and /root are mounted over them, then moved back to their paths.
    mkdir -p "$STATE/keep-$h"
    ip netns exec "$h" unshare --mount --uts --ipc --pid --fork --mount-proc --propagation private bash -c '
        IFS=: read -ra shares <<< "$3"
        for n in "${!shares[@]}"; do mkdir -p "$4/$n"; mount --bind "${shares[$n]}" "$4/$n"; done
        mount -t tmpfs -o size=1g,mode=1777 shm /dev/shm
        mount -t tmpfs -o size=512m,mode=1777 tmp /tmp
        mount -t tmpfs -o size=64m,mode=700 home /root
        for n in "${!shares[@]}"; do mkdir -p "${shares[$n]}"; mount --move "$4/$n" "${shares[$n]}"; done
        mount --bind "$2" /etc/hosts
        hostname "$1"
        if mount -t tmpfs -o mode=755 cgroup /sys/fs/cgroup 2>/dev/null; then
          for c in freezer cpuset memory devices cpu,cpuacct pids; do
            mkdir -p /sys/fs/cgroup/$c; mount -t cgroup -o $c cgroup /sys/fs/cgroup/$c 2>/dev/null || true
          done
          mkdir -p /sys/fs/cgroup/systemd; mount -t cgroup -o none,name=systemd cgroup /sys/fs/cgroup/systemd 2>/dev/null || true
        fi
        touch /tmp/.host-ready
        trap "exit 0" TERM
        while :; do sleep 3600 & wait $!; done' init "$h" "$STATE/hosts" "$shares" "$STATE/keep-$h" > /dev/null 2>&1 &
    local outer=$! init=
    for _ in $(seq 200); do
      init=$(awk '{print $1}' "/proc/$outer/task/$outer/children" 2>/dev/null || true)
      [ -n "$init" ] && [ -e "/proc/$init/root/tmp/.host-ready" ] && break
      init=; sleep 0.02
    done
    [ -n "$init" ] || { echo "pseudohosts.sh: host $h did not start" >&2; false; }
    echo "$init" > "$STATE/$h.pid"
    echo "$h" >> "$STATE/hostlist"
  done
  start_sshd "$k"
  trap - ERR
}

start_sshd() {
  local k=$1 i h key
  ssh-keygen -q -t ed25519 -N '' -C "testbed $prefix host" -f "$STATE/host_key"
  ssh-keygen -q -t ed25519 -N '' -C "testbed $prefix client" -f "$STATE/id"
  cp "$STATE/id.pub" "$STATE/authorized_keys"
  key=$(cut -d' ' -f1,2 "$STATE/host_key.pub")
  : > "$STATE/known_hosts"
  for ((i = 0; i < k; i++)); do echo "$prefix-h$i,$SUBNET.$((i + 1)) $key" >> "$STATE/known_hosts"; done
  cat > "$STATE/sshd_config" <<CONF
ListenAddress 0.0.0.0
HostKey $STATE/host_key
AuthorizedKeysFile $STATE/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
MaxStartups 100:30:200
MaxSessions 100
CONF
  cat > "$STATE/ssh_config" <<CONF
Host *
  User root
  IdentityFile $STATE/id
  IdentitiesOnly yes
  UserKnownHostsFile $STATE/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 10
  LogLevel ERROR
CONF
  for ((i = 0; i < k; i++)); do
    h=$prefix-h$i
    on "$h" /usr/sbin/sshd -f "$STATE/sshd_config" -o "PidFile=/tmp/sshd.pid" -E "$STATE/sshd-$h.log"
  done
  for ((i = 0; i < k; i++)); do
    h=$prefix-h$i
    for t in $(seq 100); do
      on "$h" timeout 10 ssh -F "$STATE/ssh_config" "$h" true 2>/dev/null && continue 2
      sleep 0.05
    done
    echo "pseudohosts.sh: sshd on $h does not answer" >&2; false
  done
}

# Two-node Slurm: munged and slurmctld on host 0, slurmd on hosts 0 and 1. Everything (configuration
# through SLURM_CONF, munge key and socket, spool, logs) lives in the testbed's state directory.
slurm() {
  [ "$(wc -l < "$STATE/hostlist")" -ge 2 ] || die "slurm needs at least 2 hosts"
  local h0=$prefix-h0 h1=$prefix-h1 s=$STATE/slurm
  mkdir -p "$s/ctld" "$s/munge" "$s/d-$h0" "$s/d-$h1"
  dd if=/dev/urandom of="$s/munge/key" bs=1024 count=1 status=none
  chmod 600 "$s/munge/key"
  cat > "$s/slurm.conf" <<CONF
ClusterName=$prefix
SlurmctldHost=$h0($SUBNET.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$s/munge/socket
StateSaveLocation=$s/ctld
SlurmdSpoolDir=$s/d-%n
SlurmctldPidFile=$s/ctld.pid
SlurmdPidFile=$s/d-%n.pid
SlurmctldLogFile=$s/ctld.log
SlurmdLogFile=$s/d-%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
SlurmdParameters=config_overrides
MpiDefault=none
SlurmdTimeout=30
InactiveLimit=0
KillWait=2
NodeName=$h0 NodeAddr=$SUBNET.1 CPUs=4 Boards=1 SocketsPerBoard=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=1000 State=UNKNOWN
NodeName=$h1 NodeAddr=$SUBNET.2 CPUs=4 Boards=1 SocketsPerBoard=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=1000 State=UNKNOWN
PartitionName=pe Nodes=$h0,$h1 Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
  on "$h0" /usr/sbin/munged --force --key-file="$s/munge/key" --socket="$s/munge/socket" \
    --pid-file="$s/munge/pid" --log-file="$s/munge/log" --seed-file="$s/munge/seed"
  export SLURM_CONF=$s/slurm.conf
  on "$h0" /usr/sbin/slurmctld -i
  on "$h0" /usr/sbin/slurmd
  on "$h1" /usr/sbin/slurmd
  for _ in $(seq 300); do
    [ "$(on "$h0" timeout 10 sinfo -h -N -o '%t' 2>/dev/null | grep -c idle)" = 2 ] && return 0
    sleep 0.1
  done
  echo "pseudohosts.sh: the Slurm nodes did not become idle:" >&2
  on "$h0" timeout 10 sinfo -N >&2 || true
  tail -5 "$s/ctld.log" "$s"/d-*.log >&2 || true
  exit 1
}

down() {
  local f ns
  for f in "$STATE"/*.pid; do
    # pid 1 of the host's pid namespace: the kernel kills every process of the host with it
    [ -e "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null || true
  done
  for ns in $(ip netns list | awk '{print $1}'); do
    case $ns in "$prefix"-h[0-9]*|"$prefix"-sw) ip netns del "$ns" 2>/dev/null || true;; esac
  done
  rm -rf "$STATE"
}

case $cmd in
  up)
    if [ -z "$prefix" ]; then prefix=tb$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n'); echo "SHMEM4J_TESTBED=$prefix"; fi
    need_prefix; up "${1:-2}";;
  slurm) need_prefix; slurm;;
  exec)
    need_prefix; [ $# -ge 2 ] || die "usage: exec HOST CMD..."
    h=$1; shift
    [ -e "$STATE/slurm/slurm.conf" ] && export SLURM_CONF=$STATE/slurm/slurm.conf
    exec nsenter -t "$(host_pid "$h")" -a --wd="$PWD" -- "$@";;
  hosts) need_prefix; cat "$STATE/hostlist";;
  pid) need_prefix; host_pid "${1:?usage: pid HOST}";;
  crash)
    # the link goes first: the kernel's FINs and RSTs for the killed processes' sockets must not
    # leave the host, as nothing leaves a machine whose power failed
    need_prefix; h=${1:?usage: crash HOST}; pid=$(host_pid "$h")
    ip -n "$h" link set eth0 down
    kill -KILL "$pid";;
  ssh-config) need_prefix; echo "$STATE/ssh_config";;
  down) need_prefix; down;;
  *) die "usage: pseudohosts.sh [-p PREFIX] up K | slurm | exec HOST CMD... | crash HOST | pid HOST | hosts | ssh-config | down";;
esac
