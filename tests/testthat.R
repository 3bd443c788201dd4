library(testthat)
library(sideclust)

test_check("sideclust")
