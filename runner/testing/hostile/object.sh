echo '{"cells": [[1,2]]}'
