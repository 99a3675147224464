"""The suite over a collection of episodes: the tasks' data merged across episodes (``task_data``), the runs per
split (``runs``), ``robotask suite --collection`` (``cli``), and chapter 14: the collection and its costs
(``study``), the splits it runs (``design``), its tables (``tables``, ``shown``), its glued numbers (``facts``)
and phrases (``phrases``)."""
