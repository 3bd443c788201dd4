# Documentation of the benchmark data sets in data/ (built by
# data-raw/build-datasets.R). Each is a data.frame of numeric features with a
# factor `class` as its last column.

#' Wine recognition data
#'
#' Chemical analysis of 178 wines grown in the same region of Italy from three
#' cultivars. Used in the TVClust / RDP-means and CEC-IB experiments. The
#' features have very different scales (`proline` is around 1000, `hue`
#' around 1): consider scaling them.
#'
#' @format A data frame with 178 rows and 14 columns: 13 numeric features
#'   `alcohol`, `malic_acid`, `ash`, `alcalinity_of_ash`, `magnesium`,
#'   `total_phenols`, `flavanoids`, `nonflavanoid_phenols`, `proanthocyanins`,
#'   `color_intensity`, `hue`, `od280_od315` (OD280/OD315 of diluted wines)
#'   and `proline`, then `class`, a factor with levels `"1"` (59 wines), `"2"`
#'   (71) and `"3"` (48), the cultivar (first column of the UCI file).
#' @source UCI Machine Learning Repository (Dua and Graff), data set "Wine",
#'   file `wine.data`, licensed CC BY 4.0.
#'   <https://archive.ics.uci.edu/dataset/109/wine>
#' @references Dua, D. and Graff, C. (2019). UCI Machine Learning Repository.
#'   University of California, Irvine, School of Information and Computer
#'   Sciences. <https://archive.ics.uci.edu>
#'
#'   Aeberhard, S., Coomans, D. and de Vel, O. (1992). Comparison of
#'   classifiers in high dimensional settings. Technical Report 92-02,
#'   Department of Computer Science, James Cook University of North
#'   Queensland.
#' @family data sets
#' @examples
#' table(wine$class)
#' summary(wine$proline)
"wine"

#' E. coli protein localization sites
#'
#' Seven scores computed from the amino acid sequences of 336 E. coli
#' proteins, and the protein's localization site. Used in the TVClust /
#' RDP-means experiments with all 336 rows.
#'
#' The CEC-IB paper (Smieja and Geiger, 2017, Table 1) lists "Ecoli" with 327
#' rows and 5 classes: that is the five classes with at least 20 members
#' (`cp`, `im`, `pp`, `imU`, `om`), i.e. 336 rows minus the 9 rows of `omL`
#' (5), `imL` (2) and `imS` (2); the paper then reduced the features with PCA
#' (to 5). Dropping only the two classes with 2 members would leave 332 rows
#' in 6 classes, which does not match the table. See the examples for the
#' 327-row subset.
#'
#' @format A data frame with 336 rows and 8 columns; the row names are the
#'   SWISS-PROT protein names (unique; the name is not a feature):
#'   \describe{
#'     \item{`mcg`}{McGeoch's method for signal sequence recognition.}
#'     \item{`gvh`}{von Heijne's method for signal sequence recognition.}
#'     \item{`lip`}{von Heijne's Signal Peptidase II consensus sequence
#'       score (binary: 0.48 or 1).}
#'     \item{`chg`}{Presence of charge on N-terminus of predicted
#'       lipoproteins (binary: 0.5 or 1).}
#'     \item{`aac`}{Discriminant score of the amino acid content of outer
#'       membrane and periplasmic proteins.}
#'     \item{`alm1`}{Score of the ALOM membrane spanning region prediction.}
#'     \item{`alm2`}{ALOM score after excluding putative cleavable signal
#'       regions.}
#'     \item{`class`}{Localization site, a factor with levels `cp`
#'       (cytoplasm, 143), `im` (inner membrane without signal sequence, 77),
#'       `pp` (periplasm, 52), `imU` (inner membrane, uncleavable signal
#'       sequence, 35), `om` (outer membrane, 20), `omL` (outer membrane
#'       lipoprotein, 5), `imL` (inner membrane lipoprotein, 2) and `imS`
#'       (inner membrane, cleavable signal sequence, 2).}
#'   }
#' @source UCI Machine Learning Repository (Dua and Graff), data set "Ecoli",
#'   file `ecoli.data`, licensed CC BY 4.0.
#'   <https://archive.ics.uci.edu/dataset/39/ecoli>
#' @references Horton, P. and Nakai, K. (1996). A probabilistic
#'   classification system for predicting the cellular localization sites of
#'   proteins. *Proceedings of the Fourth International Conference on
#'   Intelligent Systems for Molecular Biology*, 109--115.
#'
#'   Smieja, M. and Geiger, B. C. (2017). Semi-supervised cross-entropy
#'   clustering with information bottleneck constraint. *Information
#'   Sciences*, 421, 254--271. \doi{10.1016/j.ins.2017.07.016}
#' @family data sets
#' @examples
#' table(ecoli$class)
#' # the 327 rows of the 5 classes used by CEC-IB
#' ecoli5 <- droplevels(ecoli[ecoli$class %in% c("cp", "im", "pp", "imU", "om"), ])
#' dim(ecoli5)
"ecoli"

#' Glass identification data
#'
#' Refractive index and oxide contents of 214 glass fragments of six types
#' (type 4, vehicle windows not float processed, has no rows). Used in the
#' TVClust / RDP-means and CEC-IB experiments.
#'
#' The UCI file starts with an "Id number" column (1 to 214). It is **not**
#' included: the rows are sorted by glass type, so the id is a near-perfect
#' predictor of the class and would leak the label into any clustering. (The
#' TVClust authors' code kept it as a feature; results with it are not
#' comparable.)
#'
#' @format A data frame with 214 rows and 10 columns: the refractive index
#'   `ri` and the weight percent of the oxides of sodium `na`, magnesium
#'   `mg`, aluminium `al`, silicon `si`, potassium `k`, calcium `ca`, barium
#'   `ba` and iron `fe`; then `class`, a factor with levels (UCI type codes)
#'   `"1"` building windows, float processed (70), `"2"` building windows,
#'   not float processed (76), `"3"` vehicle windows, float processed (17),
#'   `"5"` containers (13), `"6"` tableware (9) and `"7"` headlamps (29).
#' @source UCI Machine Learning Repository (Dua and Graff), data set "Glass
#'   Identification", file `glass.data` without its first column, licensed
#'   CC BY 4.0. <https://archive.ics.uci.edu/dataset/42/glass+identification>
#' @references Evett, I. W. and Spiehler, E. J. (1987). Rule induction in
#'   forensic science. Technical report, Central Research Establishment, Home
#'   Office Forensic Science Service, Aldermaston.
#' @family data sets
#' @examples
#' table(glass$class)
"glass"

#' Balance scale data
#'
#' All 625 combinations of weights and distances (1 to 5) on both sides of a
#' balance scale, from psychological experiments. The class is whether the
#' scale tips to the left (`left_weight * left_distance` larger), to the
#' right, or is balanced: it is a deterministic function of the features that
#' is not cluster-shaped. Used in the TVClust / RDP-means experiments.
#'
#' @format A data frame with 625 rows and 5 columns: `left_weight`,
#'   `left_distance`, `right_weight` and `right_distance` (whole numbers 1 to
#'   5, stored as doubles), then `class`, a factor with levels `"B"`
#'   (balanced, 49), `"L"` (left, 288) and `"R"` (right, 288), the first
#'   column of the UCI file.
#' @source UCI Machine Learning Repository (Dua and Graff), data set "Balance
#'   Scale", file `balance-scale.data`, licensed CC BY 4.0.
#'   <https://archive.ics.uci.edu/dataset/12/balance+scale>
#' @references Siegler, R. S. (1976). Three aspects of cognitive development.
#'   *Cognitive Psychology*, 8(4), 481--520.
#' @family data sets
#' @examples
#' table(balance$class)
#' torque <- with(balance, left_weight * left_distance - right_weight * right_distance)
#' table(sign(torque), balance$class)
"balance"

#' Ionosphere radar returns
#'
#' Radar returns from the ionosphere collected in Goose Bay, Labrador,
#' processed by an autocorrelation function: 17 pulse numbers with 2
#' attributes each (the complex value returned). "Good" returns show
#' structure in the ionosphere, "bad" ones do not.
#'
#' The UCI description does not name the 34 attributes, so they are called
#' `x01` to `x34` in file order. `x02` is constant (0 in every row); it is
#' kept, as in the UCI file, so column positions match other software.
#' Remove it before methods that need a nonsingular covariance, e.g.
#' `ionosphere[, -2]`. `x01` takes only the values 0 and 1.
#'
#' @format A data frame with 351 rows and 35 columns: numeric features `x01`
#'   to `x34` (in \[-1, 1\]), then `class`, a factor with levels `"g"` (good,
#'   225) and `"b"` (bad, 126).
#' @source UCI Machine Learning Repository (Dua and Graff), data set
#'   "Ionosphere", file `ionosphere.data`, licensed CC BY 4.0.
#'   <https://archive.ics.uci.edu/dataset/52/ionosphere>
#' @references Sigillito, V. G., Wing, S. P., Hutton, L. V. and Baker, K. B.
#'   (1989). Classification of radar returns from the ionosphere using neural
#'   networks. *Johns Hopkins APL Technical Digest*, 10, 262--266.
#' @family data sets
#' @examples
#' table(ionosphere$class)
#' range(ionosphere$x02)
"ionosphere"

#' Vertebral column data (three classes)
#'
#' Six biomechanical attributes derived from the shape and orientation of the
#' pelvis and lumbar spine of 310 orthopaedic patients. Used in the CEC-IB
#' experiments; this is the CEC-IB authors' copy of the UCI 3-class version.
#'
#' The authors' files have neither column nor class names. The column order
#' was checked against the UCI order: `pelvic_incidence` equals
#' `pelvic_tilt + sacral_slope` (up to rounding, at most 0.01) in every row,
#' an identity that holds for no other choice of three columns; the smaller
#' of the two summands (mean 17.5 degrees) is the pelvic tilt and the larger
#' (mean 43.0) the sacral slope, as is typical. The class codes 1, 2, 3 of the
#' authors' `.ref` file were mapped by their counts (60, 150, 100) to the
#' UCI classes; consistently, class 2 has by far the largest
#' `degree_spondylolisthesis`.
#'
#' Because of that identity the covariance of the six columns is singular
#' up to the rounding (smallest eigenvalue about 1e-5, largest 1.8e3), so
#' full-covariance Gaussian models such as [cec()], [cec_ib()] or
#' [constrained_mixture()] spend part of their fit on rounding noise in that
#' direction, and their costs can differ widely between nearly equal
#' partitions. Drop one of the three columns (for instance
#' `vertebral[-1]`) unless you reproduce the papers' experiments, which kept
#' all six.
#'
#' @format A data frame with 310 rows and 7 columns: `pelvic_incidence`,
#'   `pelvic_tilt`, `lumbar_lordosis_angle`, `sacral_slope`, `pelvic_radius`
#'   and `degree_spondylolisthesis`, then `class`, a factor with levels
#'   `"disk_hernia"` (60), `"spondylolisthesis"` (150) and `"normal"` (100).
#' @source UCI Machine Learning Repository (Dua and Graff), data set
#'   "Vertebral Column" (file `column_3C.dat`), licensed CC BY 4.0
#'   <https://archive.ics.uci.edu/dataset/212/vertebral+column>; in the
#'   version distributed with the CEC-IB authors' public demo.
#' @references Berthonnaud, E., Dimnet, J., Roussouly, P. and Labelle, H.
#'   (2005). Analysis of the sagittal balance of the spine and pelvis using
#'   shape and orientation parameters. *Journal of Spinal Disorders and
#'   Techniques*, 18(1), 40--47.
#'
#'   Smieja, M. and Geiger, B. C. (2017). Semi-supervised cross-entropy
#'   clustering with information bottleneck constraint. *Information
#'   Sciences*, 421, 254--271. \doi{10.1016/j.ins.2017.07.016}
#' @family data sets
#' @examples
#' table(vertebral$class)
#' tapply(vertebral$degree_spondylolisthesis, vertebral$class, median)
"vertebral"

#' User knowledge modeling data
#'
#' Students' knowledge level of electrical DC machines, with five scores in
#' \[0, 1\]. The UCI training (258) and test (145) parts combined, as used in
#' the CEC-IB experiments (the authors' copy).
#'
#' The authors' files have no class names: the codes 1 to 4 of their `.ref`
#' file were mapped by their counts (50, 129, 122, 102), which equal the UCI
#' counts of very low, low, middle and high (train + test). Consistently, the
#' mean `peg` increases from class 1 to 4.
#'
#' @format A data frame with 403 rows and 6 columns:
#'   \describe{
#'     \item{`stg`}{STG, degree of study time for goal object materials.}
#'     \item{`scg`}{SCG, degree of repetition number of the user for goal
#'       object materials.}
#'     \item{`str`}{STR, degree of study time of the user for related objects
#'       with the goal object.}
#'     \item{`lpr`}{LPR, exam performance of the user for related objects
#'       with the goal object.}
#'     \item{`peg`}{PEG, exam performance of the user for goal objects.}
#'     \item{`class`}{UNS, knowledge level: a factor with levels
#'       `"very_low"` (50), `"low"` (129), `"middle"` (122) and `"high"`
#'       (102).}
#'   }
#' @source UCI Machine Learning Repository (Dua and Graff), data set "User
#'   Knowledge Modeling", licensed CC BY 4.0
#'   <https://archive.ics.uci.edu/dataset/257/user+knowledge+modeling>; in
#'   the version distributed with the CEC-IB authors' public demo.
#' @references Kahraman, H. T., Sagiroglu, S. and Colak, I. (2013). The
#'   development of intuitive knowledge classifier and the modeling of domain
#'   dependent data. *Knowledge-Based Systems*, 37, 283--295.
#'   \doi{10.1016/j.knosys.2012.08.009}
#'
#'   Smieja, M. and Geiger, B. C. (2017). Semi-supervised cross-entropy
#'   clustering with information bottleneck constraint. *Information
#'   Sciences*, 421, 254--271. \doi{10.1016/j.ins.2017.07.016}
#' @family data sets
#' @examples
#' table(user_knowledge$class)
#' tapply(user_knowledge$peg, user_knowledge$class, mean)
"user_knowledge"

#' Image segmentation data (5 principal components)
#'
#' 3x3 pixel regions of seven outdoor images, described in the UCI data by 19
#' attributes; this is the CEC-IB authors' version of the 210-row training
#' part, already reduced by them to 5 principal components.
#'
#' The UCI classes are brickface, sky, foliage, cement, window, path and
#' grass, but the authors' files give only the codes 1 to 7 (30 rows each)
#' and the principal components cannot be matched to the UCI rows, so the
#' codes are kept as the levels. (Class 2 lies far from the others on `pc1`,
#' as sky would, which suggests the UCI order above; this is not verified.)
#'
#' @format A data frame with 210 rows and 6 columns: principal components
#'   `pc1` to `pc5`, then `class`, a factor with levels `"1"` to `"7"`, 30
#'   rows each.
#' @source UCI Machine Learning Repository (Dua and Graff), data set "Image
#'   Segmentation", file `segmentation.data`, licensed CC BY 4.0
#'   <https://archive.ics.uci.edu/dataset/50/image+segmentation>; reduced by
#'   PCA in the version distributed with the CEC-IB authors' public demo.
#' @references Smieja, M. and Geiger, B. C. (2017). Semi-supervised
#'   cross-entropy clustering with information bottleneck constraint.
#'   *Information Sciences*, 421, 254--271.
#'   \doi{10.1016/j.ins.2017.07.016}
#' @family data sets
#' @examples
#' table(segmentation$class)
#' aggregate(pc1 ~ class, data = segmentation, FUN = mean)
"segmentation"
