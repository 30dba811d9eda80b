package dev.allot.inventory;

import java.util.UUID;

/**
 * Nodes of one GPU type in one region, booked as whole nodes of {@code gpusPerNode} GPUs; {@code spareNodes} of
 * its healthy free nodes are held out of bookable capacity as hot spares for replacements.
 */
public record Pool(UUID id, String name, GpuType gpuType, int gpusPerNode, String region, int spareNodes) {

	/** The version of what can change (its spare count), for {@code ETag} and {@code If-Match}. */
	public String etag() {
		return "\"spares-" + spareNodes + "\"";
	}

}
