# S3 methods of itcc() and cross_associations() fits (their predict() in
# coclustering-predict.R).

method_label.itcc <- function(object) "ITCC"
method_label.cross_associations <- function(object) "Cross-associations"
