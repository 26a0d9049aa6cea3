have_fork = 1
have_mprotect = 1
have_munmap = 1
