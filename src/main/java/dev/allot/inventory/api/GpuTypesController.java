package dev.allot.inventory.api;

import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.shared.AllotException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/gpu-types")
class GpuTypesController {

    record CreateGpuType(
            @NotNull
            @Pattern(
                    regexp = "^[A-Z0-9][A-Z0-9-]{1,19}$",
                    message = "must be 2-20 upper-case letters, digits or hyphens")
            String code,

            @NotNull @Min(1) @Max(4096) Integer memoryGb,
            @Nullable @Size(min = 1, max = 50) String interconnect) {}

    record GpuTypeBody(String code, int memoryGb, @Nullable String interconnect) {
        static GpuTypeBody of(GpuType type) {
            return new GpuTypeBody(type.code(), type.memoryGb(), type.interconnect());
        }
    }

    private final Inventory inventory;

    GpuTypesController(Inventory inventory) {
        this.inventory = inventory;
    }

    @ResponseStatus(HttpStatus.CREATED)
    @PostMapping
    ResponseEntity<GpuTypeBody> create(Caller caller, @Valid @RequestBody CreateGpuType body) {
        GpuType type = inventory.createGpuType(
                caller, new Inventory.NewGpuType(body.code(), body.memoryGb(), body.interconnect()));
        return ResponseEntity.created(URI.create("/api/v1/gpu-types/" + type.code()))
                .body(GpuTypeBody.of(type));
    }

    @GetMapping("/{code}")
    GpuTypeBody get(@PathVariable String code) {
        return GpuTypeBody.of(inventory.gpuType(code).orElseThrow(() -> AllotException.notFound("GPU type " + code)));
    }

    @GetMapping
    PageResponse<GpuTypeBody> list(
            Caller caller,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return inventory.gpuTypes(PageQuery.of(page, size)).map(GpuTypeBody::of);
    }
}
