-- provisioning/health: what the driver read of a node when it asked for its reboot (Slurm: its slurmd's start
-- time), so that the check after the reboot waits until the node has really restarted, not merely looks in service.
ALTER TABLE node_remediation ADD COLUMN reboot_mark text CHECK (length(reboot_mark) <= 200);
