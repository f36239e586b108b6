// Commands that wipe disks or stop the machine ask in every mode, bypass included.
import { commandFormsForDenyRules } from "../denyForms.ts";
import type { CommandCheck } from "./types.ts";

const DISK_TOOLS =
  /^(mkfs(\.\w+)?|mke2fs|mkswap|fdisk|sfdisk|cfdisk|gdisk|sgdisk|parted|wipefs|blkdiscard|dmsetup|cryptsetup|zpool|diskutil)$/;
const POWER = new Set(["shutdown", "reboot", "halt", "poweroff"]);

function formReason(form: readonly string[]): string | undefined {
  const [name, ...args] = form;
  if (name === undefined) return undefined;
  if (DISK_TOOLS.test(name)) return `${name} changes disks or partitions`;
  if (POWER.has(name)) return `${name} stops or restarts the machine`;
  if (name === "init" && ["0", "6"].includes(args[0] ?? ""))
    return `init ${args[0]} stops or restarts the machine`;
  if (
    name === "systemctl" &&
    args.some((arg) => ["poweroff", "reboot", "halt", "kexec", "suspend", "hibernate"].includes(arg))
  )
    return "systemctl stops or restarts the machine";
  if (name === "kill" && args.includes("-1")) return "kill -1 signals every process";
  if (
    (name === "dd" || name === "shred") &&
    args.some((arg) => /^(of=)?\/dev\/(sd|hd|nvme|vd|xvd|disk|mmcblk|md|dm-|mapper)/.test(arg))
  )
    return `${name} writes a raw disk device`;
  return undefined;
}

export const systemDestruction: CommandCheck = {
  id: "system-destruction",
  stage: "command",
  severity: "safety",
  description:
    "formatting or partitioning disks, raw device writes, shutdown and reboot (asks even in bypass mode)",
  run: (view) => {
    for (const form of commandFormsForDenyRules(view.written.simple.argv)) {
      const reason = formReason(form);
      if (reason) return reason;
    }
    return undefined;
  },
  examples: {
    trigger: [
      "mkfs.ext4 /dev/sda1",
      "sudo fdisk /dev/sda",
      "dd if=/dev/zero of=/dev/sda bs=1M",
      "shutdown -h now",
      "sudo reboot",
      "systemctl poweroff",
      "kill -9 -1",
      "wipefs -a /dev/nvme0n1",
    ],
    pass: ["dd if=a.img of=b.img", "kill 1234", "systemctl status nginx", "echo reboot", "ls /dev"],
  },
};
