#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the LAVA job and the device dictionary of tools/lava-run.sh.

The device dictionary is what lava-server would render from its qemu
device-type template; lava-run reads it from a file, so no server is
needed. The job deploys a kernel and a gzip'd cpio ramdisk to tmpfs, and
asks LAVA to append its test overlay to the ramdisk ("overlays: lava"),
which needs neither libguestfs nor a network in the guest. The test
definition is ci/lava/ptbench.yaml, inline, so the job runs the file as it
is in the working tree rather than a committed copy.
"""
import argparse
import sys

import yaml

PROMPT = "ptbench-guest# "


def device(args):
    options = [
        "-machine virt",
        "-cpu max,pauth-impdef=on",
        "-accel tcg",
        "-smp %d" % args.smp,
        "-m %s" % args.mem,
        "-nographic",
        "-monitor none",
        "-no-reboot",
        "-net none",
    ]
    return {
        "device_type": "qemu",
        "available_architectures": ["arm64"],
        "constants": {
            "shutdown-message": "The system is going down for reboot NOW",
            "kernel-start-message": "Linux version [0-9]",
            "default-shell-prompt": "lava-test: # ",
            "spawn_maxread": 4092,
            # one try: a local run shows its failure at once
            "failure_retry": 1,
            "boot_retry": 1,
            "posix": {
                "lava_test_sh_cmd": "/bin/sh",
                "lava_test_results_dir": "/lava-%s",
                "lava_test_shell_file": "~/.profile",
            },
        },
        "actions": {
            "deploy": {
                "connections": {"serial": None},
                "methods": {
                    # ApplyOverlayGuest's validation needs a size even when
                    # the overlay goes into the ramdisk instead
                    "image": {"parameters": {"guest": {"size": 64, "interface": "virtio"}}},
                    "tmpfs": None,
                },
            },
            "boot": {
                "connections": {"serial": None},
                "methods": {
                    "qemu": {
                        "parameters": {
                            "command": "qemu-system-aarch64",
                            "options": options,
                        }
                    }
                },
            },
        },
        "timeouts": {"actions": {}, "connections": {}},
    }


def job(args, testdef):
    append = "console=ttyAMA0 loglevel=6 panic=-1 rdinit=/init"
    return {
        "device_type": "qemu",
        "job_name": "ptbench arm64 qemu (tools/lava-run.sh)",
        "priority": "medium",
        "visibility": "public",
        "context": {"arch": "arm64"},
        "timeouts": {
            "job": {"minutes": args.timeout_min},
            "action": {"minutes": args.timeout_min},
            "connection": {"minutes": 2},
        },
        "actions": [
            {
                "deploy": {
                    "to": "tmpfs",
                    "timeout": {"minutes": 5},
                    "images": {
                        "kernel": {
                            "url": "file://" + args.kernel,
                            "image_arg": '-kernel {kernel} -append "%s"' % append,
                        },
                        "ramdisk": {
                            "url": "file://" + args.ramdisk,
                            "image_arg": "-initrd {ramdisk}",
                            "compression": "gz",
                            "format": "cpio.newc",
                            "overlays": {"lava": True},
                        },
                    },
                }
            },
            {
                "boot": {
                    "method": "qemu",
                    "media": "tmpfs",
                    "timeout": {"minutes": args.boot_timeout_min},
                    "prompts": [PROMPT],
                }
            },
            {
                "test": {
                    "timeout": {"minutes": args.timeout_min},
                    "definitions": [
                        {
                            "from": "inline",
                            "name": "ptbench",
                            "path": "inline/ptbench.yaml",
                            "repository": testdef,
                            "parameters": {"RUN_ARGS": args.run_args},
                        }
                    ],
                }
            },
        ],
    }


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--kernel", required=True)
    p.add_argument("--ramdisk", required=True)
    p.add_argument("--testdef", required=True)
    p.add_argument("--run-args", required=True)
    p.add_argument("--mem", default="2G")
    p.add_argument("--smp", type=int, default=2)
    p.add_argument("--timeout-min", type=int, default=60)
    p.add_argument("--boot-timeout-min", type=int, default=5)
    p.add_argument("--job", required=True, help="job YAML to write")
    p.add_argument("--device", required=True, help="device dictionary to write")
    args = p.parse_args()
    if "'" in args.run_args:
        # LAVA writes parameters into the test shell between single quotes
        sys.exit("make_job.py: ptbench run options hold a single quote: %s" % args.run_args)
    with open(args.testdef) as f:
        testdef = yaml.safe_load(f)
    with open(args.job, "w") as f:
        yaml.safe_dump(job(args, testdef), f, sort_keys=False, width=1000)
    with open(args.device, "w") as f:
        yaml.safe_dump(device(args), f, sort_keys=False)


if __name__ == "__main__":
    main()
