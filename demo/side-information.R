# Cluster the wine data (178 wines, 3 cultivars) with noisy pairwise side
# information, as in the TVClust paper's Section 5.2: 3% of the pairs are
# labelled "same cultivar" or "different cultivar", and 10% of those labels
# are wrong. Compares k-means, DP-means, RDP-means and TVClust (which is not
# told k and learns how reliable the constraints are), counts the wrong pairs
# RDP-means rejected, and draws its clustering with the correct pairs it broke.
# The PNG goes to $SIDECLUST_DEMO_DIR (default: demo-output/).
library(sideclust)

x <- scale(wine[, -ncol(wine)])
truth <- wine$class
set.seed(2026)
side <- sample_constraints(truth, protocol = "tvclust", rate = 0.03, noise = 0.1)
print(side)

fits <- list(
  `stats::kmeans` = stats::kmeans(x, centers = 3, nstart = 10)$cluster,
  `DP-means` = dp_means(x, k = 3)$cluster,
  `RDP-means` = (rdp <- rdp_means(x, side, k = 3, restarts = 10))$cluster,
  TVClust = (tv <- tvclust(x, side, iter = 400))$cluster
)
scores <- t(vapply(fits, compare_partitions, numeric(3), truth = truth))
cat("\nAgreement with the cultivars (k = 3; 3% noisy constraints, 90% correct):\n")
print(round(scores, 3))
cat("\n")
print(summary(rdp))
cat("\n")
print(summary(tv))

# Which pairs did RDP-means break? Mostly the wrong ones: it weighs each pair
# against the data instead of obeying it.
cl <- rdp$cluster
broken <- side$must != (cl[side$i] == cl[side$j])
wrong <- !side$correct
cat("\nRDP-means broke", sum(broken & wrong), "of the", sum(wrong), "wrong pairs and",
    sum(broken & !wrong), "of the", sum(!wrong), "correct ones.\n")

# Draw only the correct pairs it broke (its real mistakes), over the PCA view.
ok <- side$correct
pairs_of <- function(keep) cbind(side$i[keep], side$j[keep])
correct_side <- constraints(must = pairs_of(ok & side$must), cannot = pairs_of(ok & !side$must),
                            n = nrow(x))
out_dir <- Sys.getenv("SIDECLUST_DEMO_DIR", "demo-output")
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
png_file <- file.path(out_dir, "rdp-means-wine.png")
grDevices::png(png_file, width = 900, height = 700, res = 110)
plot(rdp, x, side = correct_side,
     main = sprintf("RDP-means on wine: the %d correct pairs it broke (of %d)",
                    sum(broken & ok), sum(ok)))
invisible(grDevices::dev.off())
cat("\nPlot written to", png_file, "\n")
