package dev.allot.provisioning.driver;

/**
 * A volume the driver made: {@code location} is where it lives (a directory, a PVC), {@code seeWith} a command that
 * shows it, and {@code detail} what the driver found there (owner and mode, say).
 */
public record ProvisionedVolume(String name, String location, String seeWith, String detail) {}
