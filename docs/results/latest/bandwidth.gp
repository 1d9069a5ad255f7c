# bandwidth.gp, written by bench/plot.sh from docs/results/latest/c-np2.txt docs/results/latest/java-np2.txt docs/results/latest/reduce_algo-np4.txt docs/results/latest/reduce_algo_hosts-np4.txt docs/results/latest/team_create-np2.txt docs/results/latest/team_create-np3.txt docs/results/latest/team_create-np4.txt docs/results/latest/team_create-np5.txt docs/results/latest/team_create-np8.txt
# gnuplot bandwidth.gp draws bandwidth.png
set terminal pngcairo size 960,600 noenhanced font "sans,11"
set output "bandwidth.png"
set title "Put and get bandwidth by message size\nsolid: Java (shmem4j), dashed: C peer (Open MPI OSHMEM)"
set xlabel "message size"
set ylabel "bandwidth (MB/s)"
set grid
set key outside right top
set logscale x 2
set logscale y 10
set xrange [2896.3093757400984:9.490626562425156E7]
set xtics rotate by 30 right ("4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864)
$s0 << EOD
4096 90748
16384 66202
65536 43675
262144 38107
1048576 20097
4194304 15619
16777216 1420
67108864 2981
EOD
$s1 << EOD
4096 75798
16384 77746
65536 49305
262144 34443
1048576 23876
4194304 24128
16777216 11637
67108864 1946
EOD
$s2 << EOD
4096 46064
16384 47104
65536 41625
262144 36835
1048576 19720
4194304 20219
16777216 1713
67108864 2728
EOD
$s3 << EOD
4096 47871
16384 50416
65536 45761
262144 33958
1048576 18597
4194304 26389
16777216 2982
67108864 4562
EOD
plot $s0 using 1:2 with linespoints lc 1 dt 1 pt 7 lw 1.5 title "Java put_bw", \
     $s1 using 1:2 with linespoints lc 2 dt 1 pt 7 lw 1.5 title "Java get_bw", \
     $s2 using 1:2 with linespoints lc 1 dt 2 pt 6 lw 1.5 title "C put_bw", \
     $s3 using 1:2 with linespoints lc 2 dt 2 pt 6 lw 1.5 title "C get_bw"
