{
  "targets": [
    {
      "target_name": "berth_sys",
      "sources": [
        "internal/sys/src/addon.c",
        "internal/sys/src/fs.c",
        "internal/sys/src/netns.c",
        "internal/sys/src/spawn.c",
        "internal/sys/src/sock.c",
        "internal/sys/src/fsat.c",
        "internal/sys/src/notify.c",
        "internal/sys/src/map.c",
        "internal/sys/src/prefault.c",
        "internal/sys/src/malloc.c",
        "internal/sys/src/exit.c",
        "internal/sys/src/du.c",
        "internal/sys/src/remove.c",
        "internal/sys/src/lock.c"
      ],
      "cflags": ["-Wall", "-Wextra", "-O2", "-D_GNU_SOURCE"]
    }
  ]
}
