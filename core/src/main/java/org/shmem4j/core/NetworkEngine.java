package org.shmem4j.core;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ServiceLoader;
import org.shmem4j.ShmemException;
import org.shmem4j.bootstrap.Bootstrap;
import org.shmem4j.core.param.Parameters;
import org.shmem4j.core.param.Params;
import org.shmem4j.transport.NetworkProvider;
import org.shmem4j.transport.JobHealth;
import org.shmem4j.transport.NetworkSetup;
import org.shmem4j.transport.Transport;

/** The network step of the init sequence: the engine ({@code SHMEM_NETWORK}) for the PEs this one does not map. */
final class NetworkEngine {
    private NetworkEngine() {
    }

    /**
     * Collective: opens the network engine {@code SHMEM_NETWORK} names when some PE is not mapped
     * (on another node), or for every PE when every AMO goes through it ({@code everyAmo}), else
     * returns null. Every PE of a multi-node job has such a peer, so all take part; each first says
     * whether it found the engine, so that a PE lacking it fails them all with its reason instead
     * of leaving them in the engine's exchange.
     */
    static Transport open(Bootstrap bootstrap, Parameters params, MemorySegment[] mapped, boolean everyAmo) {
        boolean[] remote = new boolean[mapped.length];
        int example = -1;
        for (int pe = 0; pe < mapped.length; pe++) {
            remote[pe] = everyAmo || mapped[pe] == null;
            if (remote[pe] && example < 0) {
                example = pe;
            }
        }
        if (example < 0) {
            return null;
        }
        String name = params.get(Params.NETWORK);
        NetworkProvider provider = ServiceLoader.load(NetworkProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(name)).findFirst().orElse(null);
        String mine = provider != null ? "ok" : "PE " + bootstrap.rank() + " has no network engine named '" + name
                + "' (" + Params.NETWORK.name() + ") for PE " + example + " on another node";
        for (byte[] answer : bootstrap.allGather(mine.getBytes(StandardCharsets.UTF_8))) {
            String said = new String(answer, StandardCharsets.UTF_8);
            if (!said.equals("ok")) {
                throw new ShmemException("shmem_init: " + said);
            }
        }
        Transport network = provider.open(new NetworkSetup(bootstrap.rank(), remote, mapped[bootstrap.rank()], bootstrap::allGather,
                bootstrap::publish,
                new JobHealth() {
                    @Override
                    public void checkAlive() {
                        bootstrap.checkAlive();
                    }

                    @Override
                    public void peerLost(int pe, String reason) {
                        bootstrap.peerLost(pe, reason);
                    }
                }, everyAmo));
        if (!everyAmo && !network.capabilities().atomicsCoherentWithCpu()) {
            network.close();
            throw new ShmemException("shmem_init: the atomics of network engine '" + name + "' are not atomic with respect to"
                    + " CPU atomics on the PEs of a node (with UCX: UCX_ATOMIC_MODE other than cpu on a node with an RDMA device); set "
                    + Params.NETWORK_ATOMICS.name() + "=1 to send every AMO through it");
        }
        return network;
    }
}
