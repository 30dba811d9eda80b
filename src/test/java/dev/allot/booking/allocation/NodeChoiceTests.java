package dev.allot.booking.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.booking.allocation.NodeChoice.Candidate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeChoiceTests {

    private long ids;

    private List<Candidate> nodes(String block, String rack, int count, double slack) {
        List<Candidate> nodes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long id = ++ids;
            nodes.add(new Candidate(id, block + "-" + rack + "-" + id, block, rack, slack));
        }
        return nodes;
    }

    private static List<String> blocksOf(List<Candidate> chosen) {
        return chosen.stream().map(Candidate::block).distinct().toList();
    }

    @Test
    void theFirstBlockSearchedThatHoldsTheBookingIsTakenWhole() {
        List<Candidate> candidates = new ArrayList<>();
        candidates.addAll(nodes("b1", "r1", 2, 0));
        candidates.addAll(nodes("b2", "r1", 3, 0));
        candidates.addAll(nodes("b2", "r2", 2, 0));
        candidates.addAll(nodes("b3", "r1", 8, 0));

        List<Candidate> chosen = NodeChoice.inOneBlock(candidates, 4).orElseThrow();

        assertThat(blocksOf(chosen)).containsExactly("b2");
        assertThat(chosen).hasSize(5); // the whole block, in order: locking skips nodes others hold
    }

    @Test
    void withinTheBlockTheTightestRackThatFitsComesFirstThenTheTightestGaps() {
        List<Candidate> candidates = new ArrayList<>();
        candidates.addAll(nodes("b1", "big", 6, 0));
        List<Candidate> small = nodes("b1", "small", 3, 3600);
        candidates.addAll(small);
        Candidate tight = new Candidate(++ids, "tight", "b1", "small", 60);
        candidates.add(tight);

        List<Candidate> chosen = NodeChoice.inOneBlock(candidates, 4).orElseThrow();

        assertThat(chosen.subList(0, 4)).allMatch(node -> node.rack().equals("small"));
        assertThat(chosen.getFirst()).isEqualTo(tight);
    }

    @Test
    void noBlockHoldingTheBookingMeansNoneChosenInOne() {
        assertThat(NodeChoice.inOneBlock(nodes("b1", "r1", 3, 0), 4)).isEmpty();
    }

    @Test
    void acrossBlocksTheFreestBlocksComeFirst() {
        List<Candidate> candidates = new ArrayList<>();
        candidates.addAll(nodes("b1", "r1", 1, 0));
        candidates.addAll(nodes("b2", "r1", 3, 0));
        candidates.addAll(nodes("b3", "r1", 2, 0));

        List<Candidate> chosen = NodeChoice.acrossBlocks(candidates, 5);

        assertThat(blocksOf(chosen)).containsExactly("b2", "b3", "b1");
        assertThat(blocksOf(chosen.subList(0, 5))).containsExactly("b2", "b3");
    }

    @Test
    void aReplacementComesFromTheRackOfTheKeptNodesThenFromTheirBlockAndNeverFromAnotherBlock() {
        List<Candidate> kept = new ArrayList<>();
        kept.addAll(nodes("b2", "r1", 2, 0));
        kept.addAll(nodes("b3", "r1", 1, 0));
        List<Candidate> otherBlock = nodes("b1", "r1", 2, 0);
        List<Candidate> sameBlock = nodes("b2", "r2", 1, 60);
        List<Candidate> otherKeptBlock = nodes("b3", "r2", 1, 0);
        List<Candidate> sameRack = nodes("b2", "r1", 1, 3600);
        List<Candidate> candidates = new ArrayList<>(otherBlock);
        candidates.addAll(sameBlock);
        candidates.addAll(otherKeptBlock);
        candidates.addAll(sameRack);

        List<Candidate> chosen = NodeChoice.near(candidates, kept);

        assertThat(chosen).containsExactly(sameRack.getFirst(), sameBlock.getFirst(), otherKeptBlock.getFirst());
    }
}
