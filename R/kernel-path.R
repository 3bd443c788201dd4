# The kernels behind the AVX dispatch of the distance sweeps (see the
# section "Portable kernels" of ?sideclust): options(sideclust.portable_kernels)
# forces the portable ones; the C++ glue reads it on every fit
# (src/r_kernels.h).

.onLoad <- function(libname, pkgname) {
  portable_kernels_from_env()
}

# Sets options(sideclust.portable_kernels) from the environment variable
# SIDECLUST_PORTABLE (1 / true / yes or 0 / false / no, any case), unless
# the option is set already or the variable is empty.
portable_kernels_from_env <- function(value = Sys.getenv("SIDECLUST_PORTABLE")) {
  if (!is.null(getOption("sideclust.portable_kernels")) || !nzchar(value)) return(invisible(NULL))
  flag <- switch(tolower(value), "1" = , "true" = , "yes" = TRUE, "0" = , "false" = , "no" = FALSE, NA)
  if (is.na(flag)) {
    warning(sprintf("SIDECLUST_PORTABLE = '%s' is ignored: use 1 or 0 (true / false, yes / no)", value),
            call. = FALSE)
    return(invisible(NULL))
  }
  options(sideclust.portable_kernels = flag)
  invisible(NULL)
}

# "avx" or "portable": the kernels a fit started now would take (AVX where
# the processor has it and the option does not force the portable ones).
kernel_path <- function() .kernel_path_cpp()
