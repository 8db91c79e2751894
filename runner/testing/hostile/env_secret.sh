# Answers validly only when it cannot see the runner's secret.
if [ -n "$GOL_TEST_SECRET" ]; then echo "I can see $GOL_TEST_SECRET"; else echo '[]'; fi
