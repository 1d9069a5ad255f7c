# team_create.gp, written by bench/plot.sh from docs/results/latest/c-np2.txt docs/results/latest/java-np2.txt docs/results/latest/reduce_algo-np4.txt docs/results/latest/reduce_algo_hosts-np4.txt docs/results/latest/team_create-np2.txt docs/results/latest/team_create-np3.txt docs/results/latest/team_create-np4.txt docs/results/latest/team_create-np5.txt docs/results/latest/team_create-np8.txt
# gnuplot team_create.gp draws team_create.png
set terminal pngcairo size 960,600 noenhanced font "sans,11"
set output "team_create.png"
set title "Team creation time by PEs (mean per shmem_team_split_strided)\nteams=64, Java (shmem4j), medians over 6 Java files"
set xlabel "PEs"
set ylabel "time per split (us)"
set grid
set key outside right top
set xtics 1
set offsets 0.5, 0.5, 0, 0
set logscale y 10
$s0 << EOD
2 312.6585
3 83.791
4 157.042
5 24.392
8 122.3
EOD
$s1 << EOD
2 367.938
3 20.84
4 38.774
5 75.281
8 132.924
EOD
plot $s0 using 1:2 with linespoints lc 1 dt 1 pt 7 lw 1.5 title "op=dup", \
     $s1 using 1:2 with linespoints lc 2 dt 1 pt 7 lw 1.5 title "op=halving"
