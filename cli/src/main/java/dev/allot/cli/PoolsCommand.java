package dev.allot.cli;

import dev.allot.client.ApiException;
import dev.allot.client.api.PoolsApi;
import dev.allot.client.model.PageResponsePoolBody;
import dev.allot.client.model.PoolBody;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "pools", description = "List the pools of nodes and their GPU types.")
class PoolsCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Override
    public Integer call() throws ApiException {
        PageResponsePoolBody pools = new PoolsApi(this.session.client()).listPools(0, 200);
        if (this.session.json()) {
            this.session.printJson(pools.getItems());
            return ExitCodes.OK;
        }
        this.session.println(String.format("%-24s %-10s %5s  %s", "POOL", "GPU TYPE", "GPUS", "REGION"));
        for (PoolBody pool : pools.getItems()) {
            this.session.println(String.format(
                    "%-24s %-10s %5d  %s", pool.getName(), pool.getGpuType(), pool.getGpusPerNode(), pool.getRegion()));
        }
        return ExitCodes.OK;
    }
}
