# reduce_algo_hosts.gp, written by bench/plot.sh from docs/results/latest/c-np2.txt docs/results/latest/java-np2.txt docs/results/latest/reduce_algo-np4.txt docs/results/latest/reduce_algo_hosts-np4.txt docs/results/latest/team_create-np2.txt docs/results/latest/team_create-np3.txt docs/results/latest/team_create-np4.txt docs/results/latest/team_create-np5.txt docs/results/latest/team_create-np8.txt
# gnuplot reduce_algo_hosts.gp draws reduce_algo_hosts.png
set terminal pngcairo size 960,600 noenhanced font "sans,11"
set output "reduce_algo_hosts.png"
set title "Two-level float sum reduce (host teams, leaders) by size, per algorithm\nop=float_sum mode=host_leaders pes=4, Java (shmem4j)"
set xlabel "elements (float) per PE"
set ylabel "latency (us)"
set grid
set key outside right top
set logscale x 2
set logscale y 10
set xrange [0.7071067811865475:1482910.4003789306]
set xtics rotate by 30 right ("1" 1, "4" 4, "16" 16, "64" 64, "256" 256, "1 Ki" 1024, "4 Ki" 4096, "16 Ki" 16384, "64 Ki" 65536, "256 Ki" 262144, "1 Mi" 1048576)
$s0 << EOD
1 17.529
4 14.482
16 17.066
64 14.785
256 14.876
1024 31.886
4096 36.046
16384 95.98
65536 442.141
262144 1906.327
1048576 7390.663
EOD
$s1 << EOD
1 14.349
4 17.019
16 13.123
64 18.431
256 19.418
1024 22.9
4096 57.314
16384 113.072
65536 381.387
262144 2422.042
1048576 8864.337
EOD
$s2 << EOD
1 17.498
4 17.671
16 18.003
64 19.739
256 21.559
1024 33.701
4096 73.647
16384 254.405
65536 976.398
262144 5615.136
1048576 18726.284
EOD
$s3 << EOD
1 11.572
4 10.458
16 10.851
64 13.616
256 17.43
1024 26.278
4096 54.999
16384 356.374
65536 1587.504
262144 5634.297
1048576 19003.945
EOD
$s4 << EOD
1 21.59
4 21.844
16 21.351
64 19.643
256 23.545
1024 31.529
4096 46.193
16384 167.714
65536 1079.025
262144 4257.108
1048576 14433.608
EOD
$s5 << EOD
1 43.571
4 51.402
16 203.967
64 51.271
256 130.446
1024 101.484
4096 198.701
16384 733.039
65536 3965.277
262144 13977.744
1048576 140922.101
EOD
$s6 << EOD
1 157.942
4 58.919
16 60.531
64 57.182
256 132.29
1024 94.379
4096 148.084
16384 277.497
65536 597.215
262144 2986.884
1048576 24951.722
EOD
$s7 << EOD
1 55.958
4 83.773
16 46.729
64 43.988
256 49.389
1024 101.927
4096 102.725
16384 335.931
65536 850.56
262144 3753.558
1048576 13938.977
EOD
plot $s0 using 1:2 with linespoints lc 1 dt 1 pt 7 lw 1.5 title "algo=auto", \
     $s1 using 1:2 with linespoints lc 2 dt 1 pt 7 lw 1.5 title "algo=hierarchical", \
     $s2 using 1:2 with linespoints lc 3 dt 1 pt 7 lw 1.5 title "algo=linear", \
     $s3 using 1:2 with linespoints lc 4 dt 1 pt 7 lw 1.5 title "algo=push", \
     $s4 using 1:2 with linespoints lc 5 dt 1 pt 7 lw 1.5 title "algo=rabenseifner", \
     $s5 using 1:2 with linespoints lc 6 dt 1 pt 7 lw 1.5 title "algo=recursive_doubling", \
     $s6 using 1:2 with linespoints lc 7 dt 1 pt 7 lw 1.5 title "algo=ring", \
     $s7 using 1:2 with linespoints lc 8 dt 1 pt 7 lw 1.5 title "algo=tree"
