# The post's numbers (c_src/lesson/post_numbers.txt) as the C rows of lesson_post.c: each line
# "id | label | printed | chapter | source | slot | inputs" becomes
#   {"id\0" "label\0" "printed", chapter, source, slot, inputs},
# Comment lines (#) and blank lines are skipped; a line of another shape stops the build,
# naming the file and line.
BEGIN { FS = "[ ]*[|][ ]*" }
/^#/ || /^[ \t]*$/ { next }
{
    sub(/[ \t]+$/, "")
    if (NF != 7) fail("7 columns separated by \" | \", got " NF)
    for (i = 1; i <= 3; i++)
        if ($i == "" || $i ~ /["\\]/) fail("column " i " must be text with no \" or \\")
    for (i = 4; i <= 7; i++)
        if ($i !~ /^[A-Za-z0-9_ +]+$/) fail("column " i " must be a C name or a number, got \"" $i "\"")
    printf "{\"%s\\0\" \"%s\\0\" \"%s\", %s, %s, %s, %s},\n", $1, $2, $3, $4, $5, $6, $7
    rows++
}
END { if (!failed && rows == 0) fail("no rows") }
function fail(message) {
    printf "%s:%d: %s\n", FILENAME, FNR, message > "/dev/stderr"
    failed = 1
    exit 1
}
