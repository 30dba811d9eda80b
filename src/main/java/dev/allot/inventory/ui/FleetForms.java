package dev.allot.inventory.ui;

import dev.allot.shared.Slugs;
import dev.allot.shared.web.FormErrors;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** The fleet's admin forms as submitted: every field may be missing or wrong; each form checks itself. */
final class FleetForms {

    private static final Pattern GPU_CODE = Pattern.compile("^[A-Z0-9][A-Z0-9-]{1,19}$");

    private static final Pattern DRIVER = Pattern.compile("^[0-9A-Za-z][0-9A-Za-z.+_-]{0,39}$");

    static final int MAX_REASON = 500;

    private FleetForms() {}

    static String clean(@Nullable String value) {
        return value == null ? "" : value.strip();
    }

    static @Nullable Integer number(@Nullable String value, String field, int min, int max, FormErrors errors) {
        String text = clean(value);
        if (text.isEmpty()) {
            errors.add(field, "Enter a number");
            return null;
        }
        try {
            int number = Integer.parseInt(text);
            if (number < min || number > max) {
                errors.add(field, "Enter a number from " + min + " to " + max);
                return null;
            }
            return number;
        } catch (NumberFormatException ex) {
            errors.add(field, "Enter a whole number");
            return null;
        }
    }

    static void text(String value, String field, String what, int max, FormErrors errors) {
        if (value.isEmpty()) {
            errors.add(field, "Enter " + what);
        } else if (value.length() > max) {
            errors.add(field, "Use at most " + max + " characters");
        }
    }

    record GpuTypeForm(
            @Nullable String code,
            @Nullable String memoryGb,
            @Nullable String interconnect) {

        static GpuTypeForm empty() {
            return new GpuTypeForm("", "80", "");
        }

        FormErrors validate() {
            FormErrors errors = new FormErrors();
            if (!GPU_CODE.matcher(clean(code)).matches()) {
                errors.add("code", "Use 2-20 upper-case letters, digits or hyphens, such as H100");
            }
            number(memoryGb, "memoryGb", 1, 4096, errors);
            if (clean(interconnect).length() > 50) {
                errors.add("interconnect", "Use at most 50 characters");
            }
            return errors;
        }
    }

    record PoolForm(
            @Nullable String name,
            @Nullable String gpuType,
            @Nullable String gpusPerNode,
            @Nullable String region) {

        static PoolForm empty() {
            return new PoolForm("", "", "8", "");
        }

        FormErrors validate() {
            FormErrors errors = new FormErrors();
            if (!Slugs.isValid(clean(name))) {
                errors.add("name", "The name " + Slugs.MESSAGE);
            }
            if (clean(gpuType).isEmpty()) {
                errors.add("gpuType", "Choose a GPU type");
            }
            number(gpusPerNode, "gpusPerNode", 1, 64, errors);
            text(clean(region), "region", "a region", 50, errors);
            return errors;
        }
    }

    /** One node or many: {@code hostnames} is a hostname or a range ({@link HostnameRange}). */
    record NodesForm(
            @Nullable String hostnames,
            @Nullable String rack,
            @Nullable String ibBlock,
            @Nullable String cudaDrivers) {

        static NodesForm empty() {
            return new NodesForm("", "", "", "");
        }

        List<String> drivers() {
            return Arrays.stream(clean(cudaDrivers).split("[,\\s]+"))
                    .filter(d -> !d.isEmpty())
                    .distinct()
                    .toList();
        }

        /** The hostnames to add, or null with a message on the field. */
        @Nullable
        List<String> validate(FormErrors errors) {
            List<String> expanded = null;
            try {
                expanded = HostnameRange.expand(clean(hostnames));
            } catch (HostnameRange.Invalid invalid) {
                errors.add("hostnames", invalid.getMessage());
            }
            text(clean(rack), "rack", "a rack", 50, errors);
            text(clean(ibBlock), "ibBlock", "an InfiniBand block", 50, errors);
            List<String> drivers = drivers();
            if (drivers.size() > 50) {
                errors.add("cudaDrivers", "List at most 50 driver versions");
            }
            drivers.stream()
                    .filter(d -> !DRIVER.matcher(d).matches())
                    .findFirst()
                    .ifPresent(d -> errors.add("cudaDrivers", "\"" + d + "\" is not a driver version such as 550.54"));
            return errors.isEmpty() ? expanded : null;
        }
    }
}
