# Build the package data sets in data/ from plain copies of the UCI files and
# of the CEC-IB authors' versions.
#
# Run from the package root:
#   SIDECLUST_DATA=/path/to/shared/data Rscript data-raw/build-datasets.R
# SIDECLUST_DATA defaults to ../shared/data. Only base R is used.

data_dir <- Sys.getenv("SIDECLUST_DATA", file.path("..", "shared", "data"))
if (!dir.exists(data_dir)) stop("data directory not found: ", data_dir)
if (!dir.exists("data")) dir.create("data")

uci <- function(file) file.path(data_dir, "uci", file)
cecib <- function(file) file.path(data_dir, "cecib", file)

# Assemble numeric features + a factor `class` as the last column, check the
# class counts against the documented ones, and save xz-compressed.
finish <- function(name, features, class, levels, counts, labels = levels,
                   row_names = NULL) {
  features <- as.data.frame(lapply(features, as.double))
  stopifnot(all(vapply(features, function(v) all(is.finite(v)), logical(1))),
            !anyNA(class), all(class %in% levels))
  out <- features
  out$class <- factor(class, levels = levels, labels = labels)
  row.names(out) <- row_names
  got <- as.vector(table(out$class))
  if (!identical(got, as.integer(counts))) {
    stop(name, ": class counts ", paste(got, collapse = "/"), " differ from ",
         paste(counts, collapse = "/"))
  }
  assign(name, out)
  save(list = name, file = file.path("data", paste0(name, ".rda")),
       compress = "xz")
  message(sprintf("%-15s %4d x %2d  classes %s", name, nrow(out), ncol(out),
                  paste(got, collapse = "/")))
  invisible(out)
}

# CEC-IB format: "rows cols" header then rows; .ref: row count then labels.
read_cecib <- function(name) {
  header <- scan(cecib(paste0(name, ".data")), n = 2, quiet = TRUE)
  x <- utils::read.table(cecib(paste0(name, ".data")), skip = 1)
  stopifnot(nrow(x) == header[1], ncol(x) == header[2])
  ref <- scan(cecib(paste0(name, ".ref")), quiet = TRUE)
  stopifnot(ref[1] == header[1], length(ref) == header[1] + 1)
  list(x = x, class = ref[-1])
}

# ---- wine: label in the first column -----------------------------------------
w <- utils::read.csv(uci("wine.data"), header = FALSE)
stopifnot(dim(w) == c(178, 14))
names(w) <- c("class", "alcohol", "malic_acid", "ash", "alcalinity_of_ash",
              "magnesium", "total_phenols", "flavanoids", "nonflavanoid_phenols",
              "proanthocyanins", "color_intensity", "hue", "od280_od315",
              "proline")
finish("wine", w[-1], as.character(w$class), c("1", "2", "3"), c(59, 71, 48))

# ---- ecoli: whitespace separated, protein name first, site last --------------
e <- utils::read.table(uci("ecoli.data.txt"), header = FALSE,
                       stringsAsFactors = FALSE)
stopifnot(dim(e) == c(336, 9))
names(e) <- c("protein", "mcg", "gvh", "lip", "chg", "aac", "alm1", "alm2",
              "class")
protein_names <- if (anyDuplicated(e$protein)) NULL else e$protein
finish("ecoli", e[2:8], e$class,
       c("cp", "im", "pp", "imU", "om", "omL", "imL", "imS"),
       c(143, 77, 52, 35, 20, 5, 2, 2), row_names = protein_names)

# ---- glass: DROP the first column, a row id sorted by class (leaks labels) ---
g <- utils::read.csv(uci("glass.data"), header = FALSE)
stopifnot(dim(g) == c(214, 11), identical(g[[1]], 1:214),
          !is.unsorted(g[[11]]))   # the id order is the class order
names(g) <- c("id", "ri", "na", "mg", "al", "si", "k", "ca", "ba", "fe", "class")
finish("glass", g[2:10], as.character(g$class),
       c("1", "2", "3", "5", "6", "7"), c(70, 76, 17, 13, 9, 29))

# ---- balance: label in the first column ----------------------------------------
b <- utils::read.csv(uci("balance-scale.data"), header = FALSE,
                     stringsAsFactors = FALSE)
stopifnot(dim(b) == c(625, 5))
names(b) <- c("class", "left_weight", "left_distance", "right_weight",
              "right_distance")
finish("balance", b[-1], b$class, c("B", "L", "R"), c(49, 288, 288))

# ---- ionosphere: 34 unnamed attributes (17 pulses x 2), label last -----------
io <- utils::read.csv(uci("ionosphere.data.txt"), header = FALSE,
                      stringsAsFactors = FALSE)
stopifnot(dim(io) == c(351, 35), all(io[[2]] == 0))   # column 2 is constant
names(io) <- c(sprintf("x%02d", 1:34), "class")
finish("ionosphere", io[1:34], io$class, c("g", "b"), c(225, 126),
       labels = c("g", "b"))

# ---- vertebral (CEC-IB version of UCI Vertebral Column, 3 classes) -----------
v <- read_cecib("vertebral")
names(v$x) <- c("pelvic_incidence", "pelvic_tilt", "lumbar_lordosis_angle",
                "sacral_slope", "pelvic_radius", "degree_spondylolisthesis")
# Column order check: pelvic incidence = pelvic tilt + sacral slope.
stopifnot(max(abs(v$x[[1]] - v$x[[2]] - v$x[[4]])) < 0.02)
# Class codes by the counts 60/150/100; spondylolisthesis has by far the
# largest degree of spondylolisthesis.
means <- tapply(v$x$degree_spondylolisthesis, v$class, mean)
stopifnot(which.max(means) == 2)
finish("vertebral", v$x, v$class, 1:3, c(60, 150, 100),
       labels = c("disk_hernia", "spondylolisthesis", "normal"))

# ---- user_knowledge (CEC-IB version of UCI User Knowledge Modeling) ----------
u <- read_cecib("user")
names(u$x) <- c("stg", "scg", "str", "lpr", "peg")
# Class codes by the counts 50/129/122/102; the knowledge level rises with
# the exam performance (peg), which confirms the order.
stopifnot(!is.unsorted(tapply(u$x$peg, u$class, mean)))
finish("user_knowledge", u$x, u$class, 1:4, c(50, 129, 122, 102),
       labels = c("very_low", "low", "middle", "high"))

# ---- segmentation (CEC-IB version: 5 PCA components of UCI Image Segmentation)
s <- read_cecib("segmentation")
names(s$x) <- sprintf("pc%d", 1:5)
# The authors' files do not name the 7 classes: keep their integer codes.
finish("segmentation", s$x, s$class, 1:7, rep(30, 7), labels = as.character(1:7))
